package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.RetentionLimitsContract;
import dev.lancemaintenance.flink.FlinkTestCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code retain_last} and {@code max_deletes} on a MiniCluster at parallelism 2: the budget is
 * spent by the one {@code CapDeletes} operator in front of the parallel sweeps.
 */
class FlinkRetentionLimitsIT extends RetentionLimitsContract {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return FlinkTestCluster.cleanup(tableUri);
  }
}
