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
          OptionalLong.of(DecideTasks.RECORDS_PER_TASK + 1), OptionalLong.of(99_999), OptionalLong.of(10_000_000))) {
        List<List<Integer>> tasks = DecideTasks.partitionsPerTask(partitions, records, 2);
        assertThat(tasks.stream().flatMap(List::stream).toList())
            .as("%d partitions, %s records in memory", partitions, records)
            .containsExactlyElementsOf(IntStream.range(0, partitions).boxed().toList());
        assertThat(tasks).as("no empty task").allSatisfy(task -> assertThat(task).isNotEmpty());
      }
    }
  }

  @Test
  void aTaskPerPartitionOnceAnyRecordWentToDiskFewerWhileAllAreInMemory() {
    assertThat(DecideTasks.partitionsPerTask(16, OptionalLong.empty(), 2)).hasSize(16);
    assertThat(DecideTasks.partitionsPerTask(16, OptionalLong.of(12_120), 2))
        .as("steady on 2 cores: 6,060 marks and 6,060 listed files").hasSize(2);
    assertThat(DecideTasks.partitionsPerTask(16, OptionalLong.of(12_120), 1)).hasSize(1);
    assertThat(DecideTasks.partitionsPerTask(16, OptionalLong.of(0), 0)).as("at least one").hasSize(1);
    assertThat(DecideTasks.partitionsPerTask(16, OptionalLong.of(3 * DecideTasks.RECORDS_PER_TASK + 1), 2))
        .hasSize(4);
    assertThat(DecideTasks.partitionsPerTask(2, OptionalLong.of(10_000_000), 8)).as("never more than the partitions").hasSize(2);
    assertThat(DecideTasks.partitionsPerTask(16, OptionalLong.of(2_041), 2))
        .as("a daily run's names the key snapshot did not settle (2,041 on steady): one task, one recorded part").hasSize(1);
    assertThat(DecideTasks.partitionsPerTask(16, OptionalLong.of(DecideTasks.RECORDS_PER_CORE_SHARE + 1), 2))
        .as("a share per core from two shares on").hasSize(2);
  }
}
