package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.flink.CallbackSink;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Periodic optimize in a streaming job, triggered by the small-fragment count alone: nothing runs
 * while Lance's planner would merge fewer fragments than asked, one run comes once it would merge
 * enough, and that run compacts and reclaims the merged files at once (a window of 0 starts after
 * compacting).
 */
class PeriodicOptimizeIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  private static final Queue<OptimizeResult> RESULTS = new ConcurrentLinkedQueue<>();

  @TempDir Path workDir;

  @Test
  void runsWhenThePlannerWouldMergeEnoughFragmentsAndNotBefore() throws Exception {
    RESULTS.clear();
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("appends"));
    for (int i = 0; i < 4; i++) {
      table.append(10);
    }
    long rows = table.countRows();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(500);
    CallbackSink.into(
        PeriodicMaintenance.optimize(table.uri())
            .whenFragmentsToCompact(8)
            // Through the option catalogues, as SQL names them: the cleanup's window ships as text.
            .options(java.util.Map.of("older_than", "0s", "max_concurrent_tasks", "2"))
            .checkEvery(Duration.ofMillis(200))
            .append(env),
        result -> RESULTS.add(result));
    JobClient job = env.executeAsync("periodic lance optimize");
    try {
      // Ticks every 200 ms; a run due with 4 fragments would have come several times by now.
      Thread.sleep(2_000);
      assertThat(RESULTS).as("runs with 4 fragments to merge").isEmpty();

      for (int i = 0; i < 4; i++) {
        table.append(10);
      }
      await(() -> !RESULTS.isEmpty(), Duration.ofSeconds(60));
    } finally {
      job.cancel().get();
    }

    OptimizeResult run = RESULTS.peek();
    assertThat(run.plannedFragments()).as("fragments merged").isEqualTo(8);
    assertThat(table.versions()).as("versions left").containsExactly(table.latestVersion());
    assertThat(table.listFiles().stream().filter(p -> p.startsWith("data/"))).as("data files left").hasSize(1);
    assertThat(table.countRows()).as("rows").isEqualTo(rows * 2);
    assertThat(ReadBack.snapshot(table.root()).unreadable()).as("versions that do not read").isEmpty();
  }

  private static void await(java.util.function.BooleanSupplier condition, Duration timeout) throws InterruptedException {
    Instant until = Instant.now().plus(timeout);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(until)) {
        throw new AssertionError("no optimize run within " + timeout);
      }
      Thread.sleep(100);
    }
  }
}
