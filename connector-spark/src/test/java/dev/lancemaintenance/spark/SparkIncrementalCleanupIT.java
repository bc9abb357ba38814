package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.ledger.IncrementalCleanupContract;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The thirty days of maintenance as Spark jobs on {@code local[2]}: the ledger's new manifests
 * summarised in runs of four per task, its marks derived on the driver and shipped as tasks, each run
 * verified against the full mark; every table is distributed ({@link SparkTestSession}).
 */
class SparkIncrementalCleanupIT extends IncrementalCleanupContract {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    return new SparkCleanupAction(SPARK.session(), TableLocation.of(tableUri), storage, Clock.systemUTC())
        .sliceSize(4).partitions(2);
  }
}
