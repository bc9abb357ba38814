package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Spark engine meets the cleanup contract on Spark {@code local[2]}: same files left and same
 * counters as Lance's own cleanup on every conformance scenario and policy. Small slices and an odd
 * partition count make every scenario cross slice and partition boundaries.
 */
class SparkCleanupConformanceIT extends CleanupContractTest {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return SparkTestSession.cleanup(SPARK.session(), tableUri);
  }
}
