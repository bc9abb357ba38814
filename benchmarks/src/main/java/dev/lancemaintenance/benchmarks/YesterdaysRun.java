package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.ledger.KeySnapshot;
import dev.lancemaintenance.ledger.KeySnapshotFile;
import dev.lancemaintenance.ledger.Ledger;
import dev.lancemaintenance.ledger.LedgerDirectory;
import dev.lancemaintenance.ledger.UnlistedRecord;
import dev.lancemaintenance.ledger.LedgerReadAhead;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.MarkTasks;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorages;
import java.time.Clock;
import java.util.List;

/**
 * What the daily run finds on a table: the ledger, and the key snapshot of the versions it kept,
 * that an incremental run of the day before left, written untimed over every version but the newest
 * {@code newVersions} (the day's commits). Shared by the daily contenders of every engine.
 */
final class YesterdaysRun {
  private YesterdaysRun() {}

  static void leave(Table table, int newVersions) {
    leave(table, newVersions, false);
  }

  /**
   * As {@link #leave(Table, int)}; with {@code listingRecord}, on an object store, also the record
   * that run would have left beside the snapshot had it listed with {@code listing => 'auto'}
   * ({@link #leaveListingRecord}).
   */
  static void leave(Table table, int newVersions, boolean listingRecord) {
    try (TableStorage opened = TableStorages.factory(StorageConf.of(table.hadoopOptions())).open(TableLocation.of(table.hadoopUri()))) {
      CleanupPlan plan = new CleanupPlanner().plan(opened, CleanupPolicy.builder().beforeVersion(1).build(), DatasetRef.MAIN, System.currentTimeMillis());
      long lastSummarised = plan.facts().latestVersion() - newVersions;
      List<ManifestSlice> yesterday = plan.slices().stream()
          .map(slice -> new ManifestSlice(slice.role(), slice.dataset(),
              slice.manifests().stream().filter(m -> m.version() <= lastSummarised).toList()))
          .filter(slice -> !slice.manifests().isEmpty())
          .toList();
      // As the local engine's run of the day before: it also leaves the key snapshot of the versions it kept.
      MarkTasks.of(opened, new CleanupPlan(plan.facts(), yesterday, plan.listings()), MarkMode.INCREMENTAL,
          CleanupMode.EXECUTE, Clock.systemUTC(), new InThisThread(opened, plan.facts().dataset()), LedgerReadAhead.none(), true);
      if (listingRecord && opened.listingHorizonMillis().isPresent()) {
        leaveListingRecord(opened, yesterday);
      }
    }
  }

  /**
   * The record of the last listing (docs/ledger.md, section 11): that run's listing began once the
   * newest version it saw was committed, so the horizon is that manifest's store time; the
   * benchmark's tables hold no orphan, so it kept no unreferenced file. With it the daily run
   * examines names instead of listing, as a real table's does on six days in seven.
   */
  private static void leaveListingRecord(TableStorage opened, List<ManifestSlice> yesterday) {
    String fingerprint = Ledger.fingerprint(opened.location().identity(), DatasetRef.MAIN);
    KeySnapshot snapshot = KeySnapshotFile.readNewest(opened, DatasetRef.MAIN, fingerprint).snapshot()
        .orElseThrow(() -> new IllegalStateException("the day before left no key snapshot"));
    long horizon = yesterday.stream().flatMap(slice -> slice.manifests().stream())
        .mapToLong(ManifestLocation::modificationTimeMillis).max().orElseThrow();
    new UnlistedRecord(fingerprint, DatasetRef.MAIN, UnlistedRecord.digestOf(snapshot.versions()), horizon, List.of())
        .write(opened, LedgerDirectory.list(opened, DatasetRef.MAIN));
  }

  /** Summarises on the calling thread: the preparation is not timed. */
  private record InThisThread(TableStorage storage, DatasetRef dataset) implements MarkTasks.Decoder {
    @Override
    public List<RunSummary> summarise(List<ManifestRun> runs) {
      return runs.stream().map(run -> new VersionSummaries(storage, dataset).summarise(run)).toList();
    }

    @Override
    public List<MarkResult> markInFull(List<MarkTask> tasks) {
      throw new UnsupportedOperationException("not verified");
    }
  }
}
