package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;

/**
 * The local engine marking from the ledger meets the whole cleanup contract (every scenario of both
 * writers, against the SDK 7.0.0 and LanceDB), in {@link MarkMode#VERIFY}: each run builds the
 * ledger from the manifests and marks from it, and refuses if that differs in one mark from the full
 * mark stage. The ledger's later runs, which read only new manifests, are {@link
 * IncrementalCleanupIT}'s.
 */
class LedgerConformanceIT extends CleanupContractTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .markMode(MarkMode.VERIFY)
        .parallelism(4)
        .partitions(7);
  }
}
