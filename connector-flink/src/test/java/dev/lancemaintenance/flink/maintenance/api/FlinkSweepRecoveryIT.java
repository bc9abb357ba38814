package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.FailingOnceStorage;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.TreeSet;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep subtask that dies after deleting a batch is restarted by Flink (fixed delay, one attempt)
 * and the run ends as an undisturbed run does: same files left, same counters, nothing counted twice.
 */
class FlinkSweepRecoveryIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir static Path workDir;
  private static PristineTable table;
  private static final Instant CUTOFF = Instant.now().plus(Duration.ofMinutes(1));

  @BeforeAll
  static void writeTable() {
    table = PristineTable.keep(ConformanceScenarios.deletes(workDir).table().root(), workDir.resolve("pristine"));
  }

  @Test
  void recoversFromAFailedSweepSubtaskWithoutLossOrDoubleCounting() {
    table.restore();
    CleanupResult undisturbed = run(HadoopTableStorage.factory(StorageConf.defaults()));
    TreeSet<String> undisturbedFiles = table.currentFiles();

    table.restore();
    Path marker = workDir.resolve("sweep-failed.marker");
    CleanupResult recovered = run(FailingOnceStorage.factory(marker));

    assertThat(FailingOnceStorage.failed(marker)).as("the injected failure happened").isTrue();
    assertThat(table.currentFiles()).as("files left after recovery").isEqualTo(undisturbedFiles);
    assertThat(recovered.counters()).as("counters after recovery").isEqualTo(undisturbed.counters());
    assertThat(ReadBack.snapshot(table.table()).entries().values())
        .as("every remaining version reads back")
        .isNotEmpty()
        .noneMatch(content -> content instanceof TableContent.Unreadable);
  }

  private static CleanupResult run(TableStorageFactory storage) {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return new FlinkCleanupAction(env, TableLocation.of(table.table().toString()), storage, Clock.systemUTC())
        .distributeAbove(0)
        .beforeTimestamp(CUTOFF)
        .execute();
  }
}
