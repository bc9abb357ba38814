package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.LanceDbCleanupContractTest;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink engine meets the cleanup contract on tables written by LanceDB, on a MiniCluster at
 * parallelism 2 with slices of two manifests.
 */
class FlinkLanceDbConformanceIT extends LanceDbCleanupContractTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  @Override
  protected CleanupAction newCleanup(String tableUri) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return new FlinkCleanupAction(
            env, TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .sliceSize(2);
  }
}
