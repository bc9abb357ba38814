package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;

/** The local engine runs the thirty days of maintenance with the ledger. */
class IncrementalCleanupIT extends IncrementalCleanupContract {
  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    return new LocalCleanupAction(TableLocation.of(tableUri), storage, Clock.systemUTC());
  }
}
