package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupSafetyTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Spark engine keeps the safety promises, distributed (the test session distributes every
 * table): a corrupt manifest read on an executor, a refused delete, a retained version naming a
 * missing file all end as on the local engine. Small slices and an odd partition count make every
 * case cross slice and partition boundaries.
 */
class SparkSafetyIT extends CleanupSafetyTest {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return SparkTestSession.cleanup(SPARK.session(), tableUri);
  }
}
