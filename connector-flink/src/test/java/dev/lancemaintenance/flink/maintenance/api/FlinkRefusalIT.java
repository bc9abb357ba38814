package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LeaseHeldException;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refused cleanup (a tagged version is old) is not a transient fault: the job fails on its first
 * attempt, whatever restart strategy the environment has, and deletes nothing. A cleanup of a
 * table whose lease another run holds is refused before any job starts.
 */
class FlinkRefusalIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  private static final Duration RESTART_DELAY = Duration.ofSeconds(30);

  @TempDir Path workDir;

  @Test
  void refusalFailsTheJobWithoutRestartsAndDeletesNothing() {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("tagged"));
    long v1 = table.append(10);
    table.append(10);
    table.deleteWhere("id % 2 = 0");
    table.tag("old", v1);
    List<String> before = table.listFiles();

    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, RESTART_DELAY);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    FlinkCleanupAction cleanup = LanceFlinkMaintenance.cleanup(env, table.uri()).distributeAbove(0);
    cleanup.beforeTimestamp(Instant.now().plus(Duration.ofMinutes(1)));

    long started = System.nanoTime();
    assertThatThrownBy(cleanup::execute)
        .isInstanceOf(TaggedVersionsException.class)
        .hasMessageContaining("old");
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(took).as("failed before the first %s restart delay elapsed", RESTART_DELAY).isLessThan(RESTART_DELAY);
    assertThat(table.listFiles()).as("files after the refusal").isEqualTo(before);
  }

  @Test
  void aBatchCleanupWhileAnotherRunHoldsTheTableLeaseFailsNamingItAndDeletesNothing() throws Exception {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("leased"));
    table.append(10);
    table.append(10);
    table.deleteWhere("id % 2 = 0");
    List<String> before = table.listFiles();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults());
        TableLease held = Leases.holdElsewhere(storage, Instant.now(), Duration.ofDays(1))) {
      FlinkCleanupAction cleanup = LanceFlinkMaintenance.cleanup(env, table.uri()).distributeAbove(0);
      cleanup.beforeTimestamp(Instant.now().plus(Duration.ofMinutes(1)));

      assertThatThrownBy(cleanup::execute)
          .isInstanceOf(LeaseHeldException.class)
          .hasMessageContaining("run elsewhere on host other-host (pid 4242)");
    }
    assertThat(table.listFiles()).as("files").isEqualTo(before);
  }
}
