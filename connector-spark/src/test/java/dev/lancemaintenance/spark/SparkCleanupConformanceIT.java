package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The Spark engine meets the cleanup contract on Spark {@code local[2]}: same files left and same
 * counters as Lance's own cleanup on every conformance scenario and policy. Small slices and an odd
 * partition count make every scenario cross slice and partition boundaries.
 */
class SparkCleanupConformanceIT extends CleanupContractTest {
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
    return SparkTestSession.cleanup(spark, tableUri);
  }
}
