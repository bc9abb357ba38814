package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.local.CrashChildren;
import dev.lancemaintenance.local.CrashMatrixContract;
import dev.lancemaintenance.local.CrashPoint;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The crash matrix on the Flink engine: the child runs the cleanup as a Flink batch job on a local
 * environment, the rerun is a Flink job on this JVM's MiniCluster.
 */
class FlinkCrashMatrixIT extends CrashMatrixContract {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  @Override
  protected Class<?> child() {
    return Child.class;
  }

  @Override
  protected CleanupAction rerun(Path table, CrashPoint point, Clock clock) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return new FlinkCleanupAction(env, TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()),
        clock).distributeAbove(0);
  }

  /**
   * The child JVM: a MiniCluster as its jobs' environment, then its case ({@code <table> <cutoff
   * epoch ms> <crash point>}) run as a Flink job until it is killed.
   */
  static final class Child {
    public static void main(String[] ignored) throws Exception {
      Configuration config = new Configuration();
      // A free port: the test JVM's MiniCluster and the next case's child run beside this one.
      config.set(RestOptions.BIND_PORT, "0");
      MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
          .setConfiguration(config)
          .setNumTaskManagers(1)
          .setNumSlotsPerTaskManager(FlinkTestCluster.PARALLELISM)
          .build());
      cluster.start();
      TestStreamEnvironment.setAsContext(cluster, FlinkTestCluster.PARALLELISM);
      String[] args = CrashChildren.awaitCase().toArray(String[]::new);
      CrashPoint point = CrashPoint.valueOf(args[2]);
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      StorageConf conf = StorageConf.defaults();
      TableStorageFactory freezing = location -> new CrashPoint.FreezingStorage(new HadoopTableStorage(location, conf), point);
      new FlinkCleanupAction(env, TableLocation.of(args[0]), freezing, Clock.systemUTC())
          .distributeAbove(0)
          .beforeTimestamp(Instant.ofEpochMilli(Long.parseLong(args[1])))
          .execute();
      System.out.println(CrashPoint.FINISHED);
      System.exit(0);
    }
  }
}
