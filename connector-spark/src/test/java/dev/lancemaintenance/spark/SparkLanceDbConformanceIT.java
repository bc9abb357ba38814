package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.LanceDbCleanupContractTest;
import java.time.Clock;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The Spark engine meets the cleanup contract on tables written by LanceDB, on {@code local[2]}
 * with slices and partitions small enough that every table crosses their boundaries.
 */
class SparkLanceDbConformanceIT extends LanceDbCleanupContractTest {
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
  protected CleanupAction newCleanup(String tableUri) {
    return LanceMaintenance.of(spark, Clock.systemUTC()).cleanup(tableUri).sliceSize(2).partitions(3);
  }
}
