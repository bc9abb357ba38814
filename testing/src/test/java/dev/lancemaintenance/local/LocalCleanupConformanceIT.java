package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;

/**
 * The local engine meets the cleanup contract (every scenario of both writers, against the SDK
 * 7.0.0 and LanceDB), in {@link MarkMode#VERIFY}: each run marks every manifest in full, also builds
 * the ledger from them and marks from it, and refuses if the two differ in one mark; the files left
 * are then compared with the SDK's. So one pass proves the full mark stage and the ledger's marks
 * (the ledger's later runs, which read only new manifests, are {@code IncrementalCleanupIT}'s).
 * Many partitions make every scenario cross partition boundaries; slices keep their default size,
 * so that each scenario's manifests are marked by one scanner, through the fragments it shares
 * between consecutive versions (the Spark and Flink suites use slices of 2, which cross slice
 * boundaries).
 */
class LocalCleanupConformanceIT extends CleanupContractTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .markMode(MarkMode.VERIFY)
        .parallelism(4)
        .partitions(7);
  }

  @Override
  protected boolean decidesFromKeySnapshots() {
    return true;
  }
}
