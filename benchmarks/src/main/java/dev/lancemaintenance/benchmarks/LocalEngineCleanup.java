package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.ledger.KeySnapshot;
import dev.lancemaintenance.ledger.KeySnapshotFile;
import dev.lancemaintenance.ledger.Ledger;
import dev.lancemaintenance.ledger.LedgerDirectory;
import dev.lancemaintenance.ledger.LedgerReadAhead;
import dev.lancemaintenance.ledger.UnlistedRecord;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.ledger.MarkTasks;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.storage.TableStorages;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Our reference engine, in this JVM, through a storage wrapper that counts the bytes it reads;
 * {@code local} marks in full, {@code local-incremental} from the maintenance ledger that the run
 * of the day before left (built, untimed, over every version but the newest {@code newVersions}).
 * The table is opened as the CLI opens it ({@link TableStorages}: java.nio for a table on this
 * machine, Hadoop for any other store), so that both runs cost what a user's run costs.
 */
final class LocalEngineCleanup implements Contender {
  private final Optional<Integer> newVersions;

  LocalEngineCleanup() {
    this.newVersions = Optional.empty();
  }

  LocalEngineCleanup(int newVersions) {
    this.newVersions = Optional.of(newVersions);
  }

  @Override
  public String name() {
    return newVersions.isPresent() ? "local-incremental" : "local";
  }

  @Override
  public void prepare(Table table) {
    if (newVersions.isEmpty()) {
      return;
    }
    TableStorageFactory storage = TableStorages.factory(StorageConf.of(table.hadoopOptions()));
    try (TableStorage opened = storage.open(TableLocation.of(table.hadoopUri()))) {
      CleanupPlan plan = new CleanupPlanner().plan(opened, CleanupPolicy.builder().beforeVersion(1).build(), DatasetRef.MAIN, System.currentTimeMillis());
      long lastSummarised = plan.facts().latestVersion() - newVersions.get();
      List<ManifestSlice> yesterday = plan.slices().stream()
          .map(slice -> new ManifestSlice(slice.role(), slice.dataset(),
              slice.manifests().stream().filter(m -> m.version() <= lastSummarised).toList()))
          .filter(slice -> !slice.manifests().isEmpty())
          .toList();
      // As the local engine's run of the day before: it also leaves the key snapshot of the versions it kept.
      MarkTasks.of(opened, new CleanupPlan(plan.facts(), yesterday, plan.listings()), MarkMode.INCREMENTAL,
          CleanupMode.EXECUTE, Clock.systemUTC(), new InThisThread(opened, plan.facts().dataset()), LedgerReadAhead.none(), true);
      if (opened.listingHorizonMillis().isPresent()) {
        leaveYesterdaysRecord(opened, yesterday);
      }
    }
  }

  /**
   * On an object store, the record that run would have left beside the snapshot had it listed
   * (docs/ledger.md, section 11): its listing began once the newest version it saw was committed, so
   * the horizon is that manifest's store time; the benchmark's tables hold no orphan, so it kept no
   * unreferenced file. With it the daily run examines names instead of listing, as a real table's
   * does on six days in seven.
   */
  private static void leaveYesterdaysRecord(TableStorage opened, List<ManifestSlice> yesterday) {
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

  @Override
  public long clean(Table table, long beforeVersion) {
    AtomicLong bytesRead = new AtomicLong();
    StorageConf conf = StorageConf.of(table.hadoopOptions());
    new LocalCleanupAction(
            TableLocation.of(table.hadoopUri()),
            InstrumentedStorage.factory(TableStorages.factory(conf), bytesRead),
            Clock.systemUTC())
        // No age limit, as the SDK's policy: the version cutoff alone decides (our default is 7 days).
        .olderThan(Duration.ZERO)
        .beforeVersion(beforeVersion)
        .markMode(newVersions.isPresent() ? MarkMode.INCREMENTAL : MarkMode.FULL)
        // The table's history is written minutes before the run; on a real table the versions a
        // daily run expires are days old, and the margin for a PUT in flight costs nothing there.
        .putMargin(Duration.ZERO)
        .execute();
    return bytesRead.get();
  }
}
