package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.LanceDbCleanupContractTest;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;

/** The local engine meets the cleanup contract on tables written by LanceDB. */
class LocalLanceDbConformanceIT extends LanceDbCleanupContractTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .parallelism(4)
        .partitions(7);
  }
}
