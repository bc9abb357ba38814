package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;

/**
 * The local engine meets the cleanup contract. Small slices and many partitions make every
 * scenario cross slice and partition boundaries.
 */
class LocalCleanupConformanceIT extends CleanupContractTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .parallelism(4)
        .partitions(7)
        .sliceSize(2);
  }
}
