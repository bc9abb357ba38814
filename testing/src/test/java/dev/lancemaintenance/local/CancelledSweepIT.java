package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.cleanup.stage.SweepBatch;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.runs.RunState;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorage.DeleteFailure;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cancelled run (its thread interrupted by whatever runs it: an application, a notebook or an
 * engine's task that cancels it) stops its sweep: the batches already handed to the pool end, no further one is handed over, and
 * the run fails as an interrupted run does, before the release, so every manifest stays. Before,
 * the run's thread met the interrupt only when it waited for its batches at the stage's end, once
 * every decided batch had been handed over (3,376 of the 3,500 orphans went).
 *
 * <p>Deterministic: one sweep batch in flight at a time ({@code max_concurrent_deletes = 1}), and
 * the first delete of the first batch interrupts the run's thread, so the run's thread meets the
 * interrupt at the latest while it waits for that batch's slot to hand over the second.
 */
class CancelledSweepIT {
  /** Orphans in files of one row each: four sweep batches (1,000 files a batch). */
  private static final int ORPHANS = 3_500;

  @TempDir Path dir;

  @Test
  void anInterruptDuringTheSweepStopsHandingOverBatchesLeavesEveryManifestAndTheNextRunLeavesWhatTheSdkLeaves() {
    Cancelled run = cancelDuringTheSweep();

    assertThat(run.filesDeleted.get()).as("files deleted: of the %d orphans' %d sweep batches, one", run.orphans,
        (run.orphans + SweepBatch.FILES_PER_SWEEP - 1) / SweepBatch.FILES_PER_SWEEP).isEqualTo(SweepBatch.FILES_PER_SWEEP);
    assertThat(versionFiles(run.table)).as("the manifests: none released by a cancelled run").isEqualTo(run.versionsBefore);
    KeptManifests.assertEveryManifestReadsBack(run.table.root());

    // The next run, not cancelled, leaves what the SDK's cleanup with the same policy leaves.
    run.policy.applyTo(new LocalCleanupAction(TableLocation.of(run.table.uri()),
        HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())).execute();
    assertThat(FileTimes.listFiles(run.table.root())).as("the files the SDK's cleanup leaves").isEqualTo(run.sdkLeaves);
    KeptManifests.assertEveryManifestReadsBack(run.table.root());
  }

  @Test
  void theRunRecordOfACancelledSweepCountsTheBytesItsBatchDeleted() {
    Cancelled run = cancelDuringTheSweep();

    RunEntry entry = history(run.table).get(0);
    assertThat(entry.state()).as("the run's state").isEqualTo(RunState.FAILED);
    List<String> left = FileTimes.listFiles(run.table.root());
    long bytesGone = run.bytesBefore.entrySet().stream().filter(file -> !left.contains(file.getKey()))
        .mapToLong(Map.Entry::getValue).sum();
    assertThat(bytesGone).as("bytes deleted").isPositive();
    assertThat(entry.end().orElseThrow().counters()).as("the failed run's counters").containsEntry("bytes_removed", bytesGone);
  }

  /** A table with {@value #ORPHANS} orphans, cleaned by a run whose thread is interrupted by its first delete. */
  private Cancelled cancelDuringTheSweep() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("orphans.lance"));
    table.append(10);
    List<String> orphans = table.writeUncommitted(ORPHANS, 1);
    long latest = table.append(10);
    assertThat(orphans).as("the SDK's orphans, a data file per row").hasSizeGreaterThan(3 * SweepBatch.FILES_PER_SWEEP);
    Map<String, Long> bytesBefore = FileTimes.listFiles(table.root()).stream()
        .collect(Collectors.toMap(file -> file, file -> size(table.root().resolve(file))));
    List<String> versionsBefore = versionFiles(table);
    ContractPolicy policy = ContractPolicy.before("every orphan", Instant.now()).withBeforeVersion(latest).withDeleteUnverified();
    List<String> sdkLeaves = TableTwins.filesTheSdkLeaves(table.root(), dir.resolve("twin.lance"), policy.toOracle());

    Thread runThread = Thread.currentThread();
    AtomicInteger filesDeleted = new AtomicInteger();
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    TableStorageFactory cancelling = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public List<DeleteFailure> deleteBatch(List<String> paths) {
        if (filesDeleted.getAndAdd(paths.size()) == 0) {
          runThread.interrupt();
        }
        return super.deleteBatch(paths);
      }
    };
    LocalCleanupAction cleanup = new LocalCleanupAction(TableLocation.of(table.uri()), cancelling, Clock.systemUTC());
    cleanup.maxConcurrentDeletes(1);
    try {
      assertThatThrownBy(() -> policy.applyTo(cleanup).execute()).as("a cancelled run")
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("Interrupted while cleaning up");
    } finally {
      Thread.interrupted();
    }
    return new Cancelled(table, orphans.size(), bytesBefore, versionsBefore, filesDeleted, policy, sdkLeaves);
  }

  private record Cancelled(LanceTableFixture table, int orphans, Map<String, Long> bytesBefore,
      List<String> versionsBefore, AtomicInteger filesDeleted, ContractPolicy policy, List<String> sdkLeaves) {}

  private static List<String> versionFiles(LanceTableFixture table) {
    return FileTimes.listFiles(table.root()).stream().filter(path -> path.startsWith("_versions/")).toList();
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<RunEntry> history(LanceTableFixture table) {
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(table.uri()))) {
      return new RunRecords(storage).history(10, Clock.systemUTC());
    }
  }
}
