package dev.lancemaintenance.flink;

import dev.lancemaintenance.flink.maintenance.api.FlinkCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster every Flink test runs on: one task manager with two slots, parallelism 2. */
public final class FlinkTestCluster {
  public static final int PARALLELISM = 2;

  private FlinkTestCluster() {}

  /** Register with {@code @RegisterExtension static final}; jobs then see it as their environment. */
  public static MiniClusterExtension extension() {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());
  }

  /**
   * A cleanup of {@code tableUri} on this cluster at {@link #PARALLELISM}, with slices of two
   * manifests so that every test table crosses mark subtasks, run as a Flink job whatever the
   * table's size ({@code distribute_above => 0}: the tests of the Flink engine test its job; the
   * small tables a user's run cleans in the client are the local engine's run); no policy set yet.
   */
  public static FlinkCleanupAction cleanup(String tableUri) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(PARALLELISM);
    return new FlinkCleanupAction(
            env, TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .sliceSize(2)
        .distributeAbove(0);
  }
}
