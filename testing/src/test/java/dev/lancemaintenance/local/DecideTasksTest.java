package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * How the local engine groups its spill partitions into decide tasks: every partition decided by
 * exactly one task, in order, whatever the grouping (a partition left out would leave its files
 * undecided, one decided twice would record and sweep its files twice).
 */
class DecideTasksTest {
  @Test
  void everyPartitionIsDecidedByExactlyOneTaskInOrder() {
    for (int partitions : new int[] {1, 5, 16, 17}) {
      for (OptionalLong records : List.of(OptionalLong.empty(), OptionalLong.of(0), OptionalLong.of(12_120),
          OptionalLong.of(LocalCleanupAction.RECORDS_PER_DECIDE_TASK + 1), OptionalLong.of(99_999), OptionalLong.of(10_000_000))) {
        List<List<Integer>> tasks = LocalCleanupAction.partitionsPerDecideTask(partitions, records);
        assertThat(tasks.stream().flatMap(List::stream).toList())
            .as("%d partitions, %s records in memory", partitions, records)
            .containsExactlyElementsOf(IntStream.range(0, partitions).boxed().toList());
        assertThat(tasks).as("no empty task").allSatisfy(task -> assertThat(task).isNotEmpty());
      }
    }
  }

  @Test
  void aTaskPerPartitionOnceAnyRecordWentToDiskFewerWhileAllAreInMemory() {
    assertThat(LocalCleanupAction.partitionsPerDecideTask(16, OptionalLong.empty())).hasSize(16);
    assertThat(LocalCleanupAction.partitionsPerDecideTask(16, OptionalLong.of(12_120)))
        .as("steady: 6,060 marks and 6,060 listed files").hasSize(1);
    assertThat(LocalCleanupAction.partitionsPerDecideTask(16, OptionalLong.of(0))).hasSize(1);
    assertThat(LocalCleanupAction.partitionsPerDecideTask(16, OptionalLong.of(2 * LocalCleanupAction.RECORDS_PER_DECIDE_TASK + 1)))
        .hasSize(3);
    assertThat(LocalCleanupAction.partitionsPerDecideTask(2, OptionalLong.of(10_000_000))).as("never more than the partitions").hasSize(2);
  }
}
