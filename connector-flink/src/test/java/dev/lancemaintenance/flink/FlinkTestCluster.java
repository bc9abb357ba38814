package dev.lancemaintenance.flink;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
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
}
