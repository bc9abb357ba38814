package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.RetentionLimitsContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code retain_last} and {@code max_deletes} on the Spark engine, distributed (the test session
 * distributes every table): the budget is cut into per-partition quotas.
 */
class SparkRetentionLimitsIT extends RetentionLimitsContract {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return SparkTestSession.cleanup(SPARK.session(), tableUri);
  }
}
