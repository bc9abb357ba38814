package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.ledger.IncrementalCleanupContract;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The thirty days of maintenance as Flink jobs on a MiniCluster at parallelism 2 ({@code
 * distribute_above => 0}: every table a job): the ledger's new manifests summarised by a job of
 * their own in runs of four, the marks derived on the client and fed to the cleanup job as mark
 * tasks, each run verified against the full mark. {@link FlinkInClientIncrementalCleanupIT} runs the
 * same contract as a Flink user's daily run on a small table, in the client.
 */
class FlinkIncrementalCleanupIT extends IncrementalCleanupContract {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return new FlinkCleanupAction(env, TableLocation.of(tableUri), storage, Clock.systemUTC()).sliceSize(4).distributeAbove(0);
  }
}
