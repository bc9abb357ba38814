package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.local.CrashPoint;
import dev.lancemaintenance.local.CrashTable;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The crash matrix on the Flink engine: a child JVM runs the cleanup as a Flink batch job on a
 * local environment and is killed ({@code kill -9}) at each {@link CrashPoint}; every version Lance
 * keeps still reads back, and a rerun (a Flink job on this JVM's MiniCluster) takes the dead run's
 * lease at once and ends with Lance's files.
 */
class FlinkCrashMatrixIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir static Path workDir;
  private static CrashTable crashTable;
  private static final AtomicInteger copies = new AtomicInteger();

  @BeforeAll
  static void writeTable() throws InterruptedException {
    crashTable = CrashTable.write(workDir);
  }

  @ParameterizedTest(name = "flink crash point {index} of " + CrashPoint.COUNT + ": kill -9 {0}, then a rerun ends like Lance")
  @EnumSource(CrashPoint.class)
  void aFlinkRunKilledAtACrashPointLeavesRetainedVersionsReadableAndTheRerunFinishesLikeLance(CrashPoint point)
      throws Exception {
    Path table = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(crashTable.pristine(), table);

    point.killChildAt(Child.class, table.toString(), Long.toString(crashTable.cutoff().toEpochMilli()));

    crashTable.assertSafeAfterACrashAt(point, table);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    new FlinkCleanupAction(env, TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()),
            Clock.systemUTC())
        .beforeTimestamp(crashTable.cutoff())
        .execute();

    crashTable.assertEndsLikeLance(table);
  }

  /** The child JVM: {@code <table> <cutoff epoch ms> <crash point>}, a Flink job until it is killed. */
  static final class Child {
    public static void main(String[] args) throws Exception {
      CrashPoint point = CrashPoint.valueOf(args[2]);
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(2);
      StorageConf conf = StorageConf.defaults();
      TableStorageFactory freezing = location -> new CrashPoint.FreezingStorage(new HadoopTableStorage(location, conf), point);
      new FlinkCleanupAction(env, TableLocation.of(args[0]), freezing, Clock.systemUTC())
          .beforeTimestamp(Instant.ofEpochMilli(Long.parseLong(args[1])))
          .execute();
      System.out.println(CrashPoint.FINISHED);
      System.exit(0);
    }
  }
}
