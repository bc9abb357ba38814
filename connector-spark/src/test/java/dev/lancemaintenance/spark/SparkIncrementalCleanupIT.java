package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.ledger.IncrementalCleanupContract;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The thirty days of maintenance as Spark jobs on {@code local[2]}: the ledger's new manifests
 * summarised in runs of four per task, its marks derived on the driver and shipped as tasks, each run
 * verified against the full mark; every table is distributed ({@link SparkTestSession}).
 */
class SparkIncrementalCleanupIT extends IncrementalCleanupContract {
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.start();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    return new SparkCleanupAction(spark, TableLocation.of(tableUri), storage, Clock.systemUTC()).sliceSize(4).partitions(2);
  }
}
