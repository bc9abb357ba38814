package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupSafetyTest;
import dev.lancemaintenance.flink.FlinkTestCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink engine keeps the safety promises on a MiniCluster at parallelism 2: a corrupt manifest
 * read in a mark subtask, a refused delete in a sweep subtask and a retained version naming a
 * missing file all end as on the local engine. Slices of two manifests cross mark subtasks.
 */
class FlinkSafetyIT extends CleanupSafetyTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return FlinkTestCluster.cleanup(tableUri);
  }
}
