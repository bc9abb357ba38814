package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
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
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The crash matrix on the Spark engine: the child runs the cleanup as a distributed job in a
 * local-mode Spark session, the rerun is a Spark job in this JVM.
 */
class SparkCrashMatrixIT extends CrashMatrixContract {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @Override
  protected Class<?> child() {
    return Child.class;
  }

  @Override
  protected CleanupAction rerun(Path table, CrashPoint point, Clock clock) {
    return new SparkCleanupAction(
            SPARK.session(), TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()), clock)
        .distributeAbove(0);
  }

  /**
   * The child JVM: a local-mode Spark session, then its case ({@code <table> <cutoff epoch ms>
   * <crash point>}) run as a Spark job until it is killed.
   */
  static final class Child {
    public static void main(String[] ignored) {
      SparkSession spark = SparkTestSession.start("local[2]");
      String[] args = CrashChildren.awaitCase().toArray(String[]::new);
      CrashPoint point = CrashPoint.valueOf(args[2]);
      StorageConf conf = StorageConf.defaults();
      TableStorageFactory freezing = location -> new CrashPoint.FreezingStorage(new HadoopTableStorage(location, conf), point);
      new SparkCleanupAction(spark, TableLocation.of(args[0]), freezing, Clock.systemUTC())
          .distributeAbove(0)
          .beforeTimestamp(Instant.ofEpochMilli(Long.parseLong(args[1])))
          .execute();
      System.out.println(CrashPoint.FINISHED);
      spark.stop();
    }
  }
}
