package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.Latches;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dataset's own directories walked beside the plan on a store whose requests wait on the
 * network ({@link ListingWalks#startedBesideThePlan}, docs/cleanup-semantics.md section 20): each
 * walk is asked for before the plan's listing of {@code _versions/} ends, none is walked twice, and
 * the run removes what a run that walks them after the plan removes.
 */
class WalksBesideThePlanIT {
  private static final List<String> WALKED = List.of("data", "_transactions", "_deletions", "_indices");

  @TempDir Path dir;

  /** Three appends and an overwrite: v1..v3 expire with their data and transaction files. */
  private LanceTableFixture table(String name) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve(name));
    table.append(5);
    table.append(5);
    table.append(5);
    table.overwrite(5);
    return table;
  }

  private static LocalCleanupAction cleanup(LanceTableFixture table, TableStorageFactory stores) {
    return new LocalCleanupAction(TableLocation.of(table.uri()), stores, Clock.systemUTC()).olderThan(Duration.ZERO);
  }

  @Test
  void onANetworkStoreTheDatasetsDirectoriesAreWalkedBesideThePlanOnceEach() {
    LanceTableFixture table = table("network.lance");
    List<String> walks = new CopyOnWriteArrayList<>();
    CountDownLatch everyWalkAsked = new CountDownLatch(WALKED.size());
    AtomicBoolean planSawTheWalks = new AtomicBoolean();
    TableStorageFactory network = location -> new ForwardingTableStorage(HadoopTableStorage.factory(StorageConf.defaults()).open(location)) {
      /** Every walk, with attributes deferred or not (a forwarding storage lists both through here). */
      @Override
      public Iterator<FileEntry> listFiles(String path, boolean recursive) {
        walked(path);
        return super.listFiles(path, recursive);
      }

      private void walked(String path) {
        if (path.equals("_versions") && !planSawTheWalks.get()) {
          // The plan's listing, held until every walk was asked for: walks that waited for the plan never come.
          planSawTheWalks.set(Latches.awaitQuietly(everyWalkAsked));
        }
        if (WALKED.contains(path)) {
          walks.add(path);
          everyWalkAsked.countDown();
        }
      }

      @Override
      public boolean requestsWaitOnNetwork() {
        return true;
      }
    };

    CleanupCounters beside = cleanup(table, network).execute().counters();
    CleanupCounters after = cleanup(table("disk.lance"), HadoopTableStorage.factory(StorageConf.defaults())).execute().counters();

    assertThat(planSawTheWalks).as("every directory's walk was asked for while the plan listed _versions/").isTrue();
    assertThat(walks).as("each directory walked once").containsExactlyInAnyOrderElementsOf(WALKED);
    assertThat(beside.oldVersions()).isEqualTo(3);
    assertThat(beside.dataFilesRemoved()).as("data files").isEqualTo(after.dataFilesRemoved()).isPositive();
    assertThat(beside.transactionFilesRemoved()).as("transaction files").isEqualTo(after.transactionFilesRemoved());
    assertThat(beside.manifestFilesRemoved()).as("manifests").isEqualTo(after.manifestFilesRemoved());
    assertThat(beside.failedDeletes()).isZero();
  }

}
