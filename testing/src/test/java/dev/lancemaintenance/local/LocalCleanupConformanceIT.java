package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;

/**
 * The local engine meets the cleanup contract. Many partitions make every scenario cross partition
 * boundaries; slices keep their default size, so that each scenario's manifests are marked by one
 * scanner, through the fragments it shares between consecutive versions (the Spark and Flink
 * suites use slices of 2, which cross slice boundaries).
 */
class LocalCleanupConformanceIT extends CleanupContractTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .parallelism(4)
        .partitions(7);
  }
}
