package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.RetentionLimitsContract;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;

/**
 * {@code retain_last} and {@code max_deletes} on the local engine; several partitions and small
 * slices, so that the shared delete budget is spent by concurrent sweep tasks.
 */
class LocalRetentionLimitsIT extends RetentionLimitsContract {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .parallelism(4)
        .partitions(5)
        .sliceSize(2);
  }
}
