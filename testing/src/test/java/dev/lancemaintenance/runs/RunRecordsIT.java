package dev.lancemaintenance.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.lancemaintenance.testing.Latches.awaitQuietly;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.FaultyTableStorage;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LeaseHeldException;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.ReleaseWatch;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run records on the local engine: a run that deletes records its start and its result, a failed
 * one its one-line error, a dry run nothing; a record file cut short or garbled is skipped and never
 * blocks a cleanup; a finished run prunes the records of ended runs beyond the newest hundred and
 * keeps unfinished ones; the start record goes beside the plan and lands before the run writes or
 * deletes anything. (A run killed mid-sweep: {@code CrashMatrixContract}, on every engine.)
 */
class RunRecordsIT {
  @TempDir Path dir;

  private LanceTableFixture table() {
    return RunTables.threeVersionsToExpire(dir);
  }

  private static LocalCleanupAction cleanup(LanceTableFixture table, TableStorageFactory stores) {
    return new LocalCleanupAction(TableLocation.of(table.uri()), stores, Clock.systemUTC()).olderThan(Duration.ZERO);
  }

  private static TableStorageFactory stores() {
    return HadoopTableStorage.factory(StorageConf.defaults());
  }

  private static List<RunEntry> history(LanceTableFixture table) {
    try (TableStorage storage = stores().open(TableLocation.of(table.uri()))) {
      return new RunRecords(storage).history(10, Clock.systemUTC());
    }
  }

  @Test
  void aCleanupRecordsItsRunWithTheResultsCountersAndADryRunRecordsNothing() {
    LanceTableFixture table = table();
    Instant before = Instant.now();
    cleanup(table, stores()).dryRun(true).execute();
    assertThat(history(table)).as("after a dry run").isEmpty();

    CleanupResult result = cleanup(table, stores()).markMode(dev.lancemaintenance.cleanup.MarkMode.INCREMENTAL).execute();

    List<RunEntry> runs = history(table);
    assertThat(runs).hasSize(1);
    RunEntry run = runs.get(0);
    assertThat(run.state()).isEqualTo(RunState.FINISHED);
    assertThat(run.start().engine()).isEqualTo("local");
    assertThat(run.start().action()).isEqualTo("cleanup");
    assertThat(run.start().dataset()).isEqualTo(DatasetRef.MAIN);
    assertThat(run.start().policy()).contains("before_timestamp=").contains("mode=incremental");
    assertThat(run.start().startedAt()).isAfterOrEqualTo(before.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    RunEnd end = run.end().orElseThrow();
    assertThat(end.endedAt()).isAfterOrEqualTo(run.start().startedAt());
    assertThat(end.counters()).isEqualTo(result.namedCounters());
    assertThat(end.counters().get("old_versions")).isEqualTo(3L);
    assertThat(end.markMode()).isEqualTo("incremental");
    assertThat(end.manifestsRead()).as("the run decoded the four manifests").hasValue(4);
    assertThat(result.manifestsRead()).as("the result says what the record says").isEqualTo(4);
    assertThat(result.markMode()).isEqualTo(dev.lancemaintenance.cleanup.MarkMode.INCREMENTAL);
    assertThat(end.stage()).isEqualTo(CleanupStage.RELEASE.label());
    assertThat(end.error()).isEmpty();
    assertThat(run.values()).hasSameSizeAs(RunEntry.COLUMNS);
    assertThat(run.values().get(RunEntry.COLUMNS.indexOf(new RunEntry.Column("old_versions", RunEntry.ColumnType.LONG))))
        .isEqualTo(3L);
  }

  @Test
  void aFailedRunRecordsItsOneLineErrorAndTheStageItReached() {
    LanceTableFixture table = table();
    FaultyTableStorage.Faults faults = new FaultyTableStorage.Faults().crashAfterDeleting(1);

    assertThatThrownBy(() -> cleanup(table, FaultyTableStorage.factory(faults)).parallelism(1).execute())
        .isInstanceOf(FaultyTableStorage.SimulatedCrash.class);

    RunEntry run = history(table).get(0);
    assertThat(run.state()).isEqualTo(RunState.FAILED);
    RunEnd end = run.end().orElseThrow();
    assertThat(end.stage()).isEqualTo(CleanupStage.SWEEP.label());
    assertThat(end.error()).isNotEmpty().doesNotContain("\n").doesNotContain("\tat ");
    assertThat(end.counters()).as("only the bytes freed are known of a failed run").containsOnlyKeys("bytes_removed");
    assertThat(run.values().get(RunEntry.COLUMNS.indexOf(new RunEntry.Column("old_versions", RunEntry.ColumnType.LONG))))
        .as("unknown counters are NULL, not zero").isNull();
  }

  @Test
  void aCutShortOrGarbledRecordIsSkippedAndNeverBlocksACleanup() throws Exception {
    LanceTableFixture table = table();
    Path runs = Files.createDirectories(table.root().resolve(RunRecords.DIR));
    Files.writeString(runs.resolve("0000000000001-run-garbled.start"), "record=start\nrun_id=run-garbled\n");
    cleanup(table, stores()).beforeVersion(2).execute();
    Path whole = onlyFile(runs, ".start");
    byte[] content = Files.readAllBytes(whole);
    // A partly written copy of a real record, and a record whose checksum no longer holds.
    Files.write(runs.resolve("0000000000002-run-cut.start"), java.util.Arrays.copyOf(content, content.length / 2));
    Files.writeString(runs.resolve("0000000000003-run-changed.start"),
        new String(content, StandardCharsets.UTF_8).replace("engine=local", "engine=spark"));

    CleanupResult second = cleanup(table, stores()).execute();

    assertThat(second.counters().oldVersions()).as("the second run cleaned despite the bad records").isEqualTo(2);
    assertThat(table.versions()).containsExactly(4L);
    List<RunEntry> history = history(table);
    assertThat(history).extracting(RunEntry::state).containsExactly(RunState.FINISHED, RunState.FINISHED);
    assertThat(history.get(0).end().orElseThrow().counters()).isEqualTo(second.namedCounters());
  }

  @Test
  void aFinishedRunPrunesEndedRecordsBeyondTheNewestHundredAndKeepsUnfinishedOnes() {
    LanceTableFixture table = table();
    Instant longAgo = Instant.parse("2026-01-01T00:00:00Z");
    try (TableStorage storage = stores().open(TableLocation.of(table.uri()))) {
      RunRecords records = new RunRecords(storage);
      records.writeStart(planted("run-dead", longAgo.minusSeconds(60)));
      for (int i = 0; i < RunRecords.KEEP_ENDED_RUNS + 5; i++) {
        RunStart start = planted("run-old-" + i, longAgo.plusSeconds(i));
        records.writeStart(start);
        records.writeEnd(start, new RunEnd(start.runId(), start.startedAt().plusSeconds(1), RunState.FINISHED, "6/6 release",
            "full", java.util.OptionalLong.of(1), java.util.Map.of("old_versions", 0L), "", java.util.OptionalLong.empty(), ""));
      }
    }

    cleanup(table, stores()).execute();

    List<RunEntry> kept = historyOf(table, 1000);
    assertThat(kept).as("the newest hundred runs, this one among them, and the unfinished one")
        .hasSize(RunRecords.KEEP_ENDED_RUNS + 1);
    assertThat(kept.get(0).start().engine()).as("this run").isEqualTo("local");
    assertThat(kept.get(kept.size() - 1).start().runId()).as("the oldest run stays: it never ended").isEqualTo("run-dead");
    assertThat(kept.get(kept.size() - 1).state()).isEqualTo(RunState.UNFINISHED);
    assertThat(kept).extracting(run -> run.start().runId()).doesNotContain("run-old-0", "run-old-5").contains("run-old-6");
  }

  @Test
  void thePrunesListingIsTakenUnderTheLeaseAndItsDeleteGoesBesideTheRelease() {
    LanceTableFixture table = table();
    List<String> events = new CopyOnWriteArrayList<>();
    ReleaseWatch release = new ReleaseWatch(events);
    TableStorageFactory watched = location -> new ForwardingTableStorage(stores().open(location)) {
      @Override
      public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
        if (dir.equals(RunRecords.DIR) && recursive) {
          events.add("prune's listing");
        }
        return super.listFiles(dir, recursive);
      }

      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        boolean created = super.createIfAbsent(path, content);
        release.created(path, content);
        return created;
      }

      @Override
      public List<DeleteFailure> deleteBatch(List<String> paths) {
        if (!paths.isEmpty() && paths.stream().allMatch(path -> path.startsWith(RunRecords.DIR + "/"))) {
          release.holdUntilReleased();
          events.add("prune's delete");
        }
        return super.deleteBatch(paths);
      }
    };

    cleanup(table, watched).execute();

    assertThat(events).as("the prune's listing under the lease, its delete (a batch or more) beside the release")
        .startsWith("prune's listing", "release", "prune's delete")
        .containsOnly("prune's listing", "release", "prune's delete")
        .containsOnlyOnce("prune's listing", "release");
    assertThat(release.everyHeldDeleteSawTheRelease()).as("the release went while the delete waited").isTrue();
    assertThat(history(table)).extracting(RunEntry::state).containsExactly(RunState.FINISHED);
    try (Stream<Path> decided = Files.walk(table.root().resolve(RunRecords.DIR))) {
      assertThat(decided.map(Path::toString).filter(name -> name.contains(".decided/")))
          .as("the run's recorded decision, deleted before the run returned").isEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A run that ended well writes its end record after its last delete, without waiting for the
   * closes of what its run opened ({@code BaseCleanupAction#closeBesideTheEndRecord}): the storage
   * the run deleted through holds its close until the end record was written, which would hold the
   * run ten seconds and fail the test if the end record waited for it. The close still ends before
   * the release, and so before the run returns.
   */
  @Test
  void theEndRecordFollowsTheLastDeleteAndGoesBesideTheRunsCloses() {
    LanceTableFixture table = table();
    List<String> events = new CopyOnWriteArrayList<>();
    ReleaseWatch release = new ReleaseWatch(events);
    CountDownLatch endRecorded = new CountDownLatch(1);
    AtomicBoolean closeWaitedInVain = new AtomicBoolean();
    TableStorageFactory watched = location -> new ForwardingTableStorage(stores().open(location)) {
      private volatile boolean deletedTableFiles;

      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        boolean created = super.createIfAbsent(path, content);
        release.created(path, content);
        if (path.startsWith(RunRecords.DIR + "/") && path.endsWith(".end")) {
          events.add("end record");
          endRecorded.countDown();
        }
        return created;
      }

      @Override
      public List<DeleteFailure> deleteBatch(List<String> paths) {
        List<DeleteFailure> failures = super.deleteBatch(paths);
        if (paths.stream().anyMatch(path -> !TableLease.isLeaseFile(path))) {
          deletedTableFiles = true;
          events.add("delete");
        }
        return failures;
      }

      @Override
      public void close() {
        if (deletedTableFiles) {
          closeWaitedInVain.set(!awaitQuietly(endRecorded));
          events.add("run's storage closed");
        }
        super.close();
      }
    };

    CleanupResult result = cleanup(table, watched).execute();

    assertThat(result.counters().oldVersions()).isPositive();
    assertThat(events).as("every delete, then the end record beside the run's closes, then the release")
        .contains("delete").endsWith("end record", "run's storage closed", "release").containsOnlyOnce("end record");
    assertThat(closeWaitedInVain).as("the end record was written while the close waited").isFalse();
    assertThat(history(table)).extracting(RunEntry::state).containsExactly(RunState.FINISHED);
  }

  /**
   * The run's own storage is opened beside the lease's storage and look ({@code
   * BaseCleanupAction#runStorage}), and every storage a run opens is closed when it returns: after
   * a run that ended well (the run's closed beside its end record), and after one refused at the
   * lease, which never took the storage opened for it.
   */
  @Test
  void theRunsStorageOpensBesideTheLookAndEveryStorageIsClosedWhenTheRunReturns() throws Exception {
    LanceTableFixture table = table();
    AtomicInteger open = new AtomicInteger();
    List<String> openedOn = new CopyOnWriteArrayList<>();
    TableStorageFactory counted = location -> {
      open.incrementAndGet();
      openedOn.add(Thread.currentThread().getName());
      return new ForwardingTableStorage(stores().open(location)) {
        @Override
        public void close() {
          open.decrementAndGet();
          super.close();
        }
      };
    };

    cleanup(table, counted).execute();
    assertThat(open).as("storages left open by a run that ended well").hasValue(0);
    assertThat(openedOn).as("the run's storage, opened beside the look").containsOnlyOnce("lance-storage-open");

    try (TableLease other = Leases.holdElsewhere(stores().open(TableLocation.of(table.uri())), Instant.now(), Duration.ofDays(1))) {
      assertThatThrownBy(() -> cleanup(table, counted).execute()).isInstanceOf(LeaseHeldException.class);
      assertThat(open).as("storages left open by a run refused at the lease").hasValue(0);
    }
  }

  @Test
  void theStartRecordGoesBesideThePlanAndLandsBeforeTheRunWritesOrDeletesAnything() {
    LanceTableFixture table = table();
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch planListed = new CountDownLatch(1);
    AtomicBoolean startSawThePlan = new AtomicBoolean();
    TableStorageFactory watched = location -> new PlanWatchingStorage(stores().open(location), events, planListed) {
      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        if (isStartRecord(path)) {
          // Held until the plan listed _versions/: a start written before the plan never sees it.
          startSawThePlan.set(awaitQuietly(planListed));
          boolean created = super.createIfAbsent(path, content);
          events.add("start record");
          return created;
        }
        return super.createIfAbsent(path, content);
      }

      /** Every write or delete but the lease's own generations (taken before the run, pruned beside it) and the start record. */
      @Override
      protected void written(String path) {
        if (!path.startsWith(TableLease.DIR + "/cleanup.lease.") && !isStartRecord(path)) {
          events.add("write or delete");
        }
      }

      private boolean isStartRecord(String path) {
        return path.startsWith(RunRecords.DIR + "/") && path.endsWith(RunRecords.START);
      }
    };

    cleanup(table, watched).execute();

    assertThat(startSawThePlan).as("the start record was written while the plan listed _versions/").isTrue();
    assertThat(events).as("the start record beside the plan, before the run's first write or delete")
        .contains("plan's listing", "start record", "write or delete")
        .containsOnlyOnce("start record");
    assertThat(events.subList(0, events.indexOf("start record"))).as("before the start record")
        .doesNotContain("write or delete");
    assertThat(history(table)).extracting(RunEntry::state).containsExactly(RunState.FINISHED);
  }


  private static RunStart planted(String runId, Instant startedAt) {
    return new RunStart(runId, "a-dead-owner", "t", DatasetRef.MAIN, "local", "cleanup", startedAt, "planted");
  }

  private static List<RunEntry> historyOf(LanceTableFixture table, int limit) {
    try (TableStorage storage = stores().open(TableLocation.of(table.uri()))) {
      return new RunRecords(storage).history(limit, Clock.systemUTC());
    }
  }

  private static Path onlyFile(Path dir, String suffix) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> found = files.filter(f -> f.toString().endsWith(suffix) && !f.getFileName().toString().contains("garbled")).toList();
      assertThat(found).hasSize(1);
      return found.get(0);
    }
  }
}
