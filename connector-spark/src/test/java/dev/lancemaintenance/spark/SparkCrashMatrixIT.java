package dev.lancemaintenance.spark;

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
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash matrix on the Spark engine: a child JVM runs the cleanup as a distributed job in a
 * local-mode Spark session and is killed ({@code kill -9}) at each {@link CrashPoint}; every version
 * Lance keeps still reads back, and a rerun (Spark, in this JVM) takes the dead run's lease at once
 * and ends with Lance's files.
 */
class SparkCrashMatrixIT {
  @TempDir static Path workDir;
  private static CrashTable crashTable;
  private static SparkSession spark;
  private static final AtomicInteger copies = new AtomicInteger();

  @BeforeAll
  static void writeTableAndStartSpark() throws InterruptedException {
    crashTable = CrashTable.write(workDir);
    spark = SparkTestSession.start();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @ParameterizedTest(name = "spark crash point {index} of " + CrashPoint.COUNT + ": kill -9 {0}, then a rerun ends like Lance")
  @EnumSource(CrashPoint.class)
  void aSparkRunKilledAtACrashPointLeavesRetainedVersionsReadableAndTheRerunFinishesLikeLance(CrashPoint point)
      throws Exception {
    Path table = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(crashTable.pristine(), table);

    point.killChildAt(Child.class, table.toString(), Long.toString(crashTable.cutoff().toEpochMilli()));

    crashTable.assertSafeAfterACrashAt(point, table);

    new SparkCleanupAction(spark, TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()),
            Clock.systemUTC())
        .distributeAbove(0)
        .beforeTimestamp(crashTable.cutoff())
        .execute();

    crashTable.assertEndsLikeLance(table);
  }

  /** The child JVM: {@code <table> <cutoff epoch ms> <crash point>}, a Spark job until it is killed. */
  static final class Child {
    public static void main(String[] args) {
      CrashPoint point = CrashPoint.valueOf(args[2]);
      SparkSession spark = SparkTestSession.start("local[2]");
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
