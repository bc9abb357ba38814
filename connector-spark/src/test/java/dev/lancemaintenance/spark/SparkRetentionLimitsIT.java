package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.RetentionLimitsContract;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@code retain_last} and {@code max_deletes} on the Spark engine, distributed (the test session
 * distributes every table): the budget is cut into per-partition quotas.
 */
class SparkRetentionLimitsIT extends RetentionLimitsContract {
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
