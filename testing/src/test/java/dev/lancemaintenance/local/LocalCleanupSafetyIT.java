package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.lancemaintenance.storage.Leases.onAnotherThread;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.CorruptTableException;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.CountingTableStorage;
import dev.lancemaintenance.storage.FaultyTableStorage;
import dev.lancemaintenance.storage.FaultyTableStorage.Faults;
import dev.lancemaintenance.storage.FaultyTableStorage.SimulatedCrash;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LeaseHeldException;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.PathEscapeException;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ManifestEdits;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/**
 * What the local engine guarantees when things go wrong mid-run: a crash at any point leaves every
 * retained version readable and the next run finishes with Lance's result; delete failures keep the
 * expired manifests; a write committed during the run loses nothing.
 *
 * <p>One table (appends, a delete, an index, compaction, an update, two old orphans) is written
 * once; each test cleans its own byte-identical copy (the table has no branches or clones, so a
 * copy is a faithful twin). Lance's own cleanup of another copy, with the same cutoff, is the
 * expected end state.
 */
class LocalCleanupSafetyIT {
  @TempDir static Path workDir;

  private static Path pristine;
  private static Instant cutoff;
  private static TreeSet<String> pristineFiles;
  private static TreeSet<String> lanceFiles;
  /** Versions Lance's cleanup keeps, with their content: what must read back after any crash. */
  private static Map<Long, TableContent> retained;
  private static final AtomicInteger copies = new AtomicInteger();
  private static CrashTable crashTable;

  @BeforeAll
  static void writeTableAndCleanATwinWithLance() throws InterruptedException {
    CrashTable table = CrashTable.write(workDir);
    crashTable = table;
    pristine = table.pristine();
    cutoff = table.cutoff();
    pristineFiles = table.pristineFiles();
    lanceFiles = table.lanceFiles();
    retained = table.retained();
    assertThat(expiredManifests()).as("the policy expires some versions").hasSizeGreaterThan(2);
    assertThat(retained).as("and keeps some").hasSizeGreaterThan(2);
  }

  // ---------------------------------------------------------------- crashes

  @Test
  void crashAtTheFirstDeleteLeavesEveryFileAndTheNextRunFinishesTheJob() {
    Path table = copyOfPristine();

    assertThatThrownBy(() -> cleanup(table, faulty(new Faults().crashAfterDeleting(0))).execute())
        .isInstanceOf(SimulatedCrash.class);

    assertThat(files(table)).as("files after the crashed run").isEqualTo(pristineFiles);
    cleanup(table, plainStorage()).execute();
    assertThat(files(table)).as("files after the second run vs Lance's cleanup").isEqualTo(lanceFiles);
  }

  @Test
  void crashInTheMiddleOfTheSweepKeepsRetainedVersionsReadableAndExpiredManifests() {
    Path table = copyOfPristine();
    Faults faults = new Faults().crashAfterDeleting(3);

    assertThatThrownBy(() -> cleanup(table, faulty(faults)).execute()).isInstanceOf(SimulatedCrash.class);

    TreeSet<String> left = files(table);
    assertThat(minus(pristineFiles, left)).as("files the crashed run deleted").hasSizeBetween(3, removedByLance().size() - 1);
    assertThat(left).as("expired manifests survive a crash").containsAll(expiredManifests());
    assertRetainedVersionsReadBack(table);
  }

  @Test
  void runAfterACrashInTheMiddleOfTheSweepLeavesWhatLanceLeaves() {
    Path table = copyOfPristine();
    assertThatThrownBy(() -> cleanup(table, faulty(new Faults().crashAfterDeleting(3))).execute())
        .isInstanceOf(SimulatedCrash.class);

    cleanup(table, plainStorage()).execute();

    assertThat(files(table)).as("files after the second run vs Lance's cleanup").isEqualTo(lanceFiles);
    assertRetainedVersionsReadBack(table);
  }

  @Test
  void crashJustBeforeTheManifestsLeavesThemForTheNextRun() {
    Path table = copyOfPristine();
    Faults faults = new Faults().crashOnDeleteOf(path -> path.startsWith("_versions/"));
    assertThatThrownBy(() -> cleanup(table, faulty(faults)).execute()).isInstanceOf(SimulatedCrash.class);

    TreeSet<String> expectedLeft = new TreeSet<>(lanceFiles);
    expectedLeft.addAll(expiredManifests());
    assertThat(files(table)).as("every other file went; every expired manifest stayed").isEqualTo(expectedLeft);
    assertRetainedVersionsReadBack(table);

    CleanupResult second = cleanup(table, plainStorage()).execute();
    assertThat(files(table)).as("files after the second run vs Lance's cleanup").isEqualTo(lanceFiles);
    assertThat(second.namedCounters())
        .as("the second run removes only the manifests")
        .containsEntry("old_versions", (long) expiredManifests().size())
        .containsEntry("data_files_removed", 0L)
        .containsEntry("transaction_files_removed", 0L)
        .containsEntry("failed_deletes", 0L);
  }

  @Test
  void crashWhileListingDeletesNothing() {
    Path table = copyOfPristine();
    Faults faults = new Faults().crashOnListingOf(dir -> dir.equals("data"));

    assertThatThrownBy(() -> cleanup(table, faulty(faults)).execute()).isInstanceOf(SimulatedCrash.class);

    assertThat(files(table)).isEqualTo(pristineFiles);
  }

  @Test
  void noDeleteOutlivesACrashedRun() throws InterruptedException {
    Path table = copyOfPristine();
    // Two partitions: the first crashes at its first delete while the second is still deleting
    // slowly; execute() must not return while the second goes on.
    Faults faults = new Faults()
        .crashOnDeleteOf(path -> ReferenceKeys.partitionOf(ReferenceKeys.keyOf(DatasetRef.MAIN, path), 2) == 0)
        .delayEachDelete(Duration.ofMillis(40));
    CleanupAction run =
        new LocalCleanupAction(TableLocation.of(table.toString()), faulty(faults), Clock.systemUTC())
            .parallelism(2)
            .partitions(2)
            .beforeTimestamp(cutoff);

    assertThatThrownBy(run::execute).isInstanceOf(SimulatedCrash.class);
    TreeSet<String> whenTheRunEnded = files(table);
    Thread.sleep(500);

    assertThat(files(table)).as("files 500 ms after execute() threw").isEqualTo(whenTheRunEnded);
  }

  // ---------------------------------------------------------------- the table lease

  @Test
  void aSecondRunWhileTheFirstDeletesFailsNamingTheHolderAndDeletesNothing() {
    Path table = copyOfPristine();
    List<Throwable> second = Collections.synchronizedList(new ArrayList<>());
    List<TreeSet<String>> filesAfterSecond = Collections.synchronizedList(new ArrayList<>());
    // The second run starts when the first is about to send its first delete: both have planned.
    Faults faults = new Faults().beforeFirstDelete(() -> {
      try {
        onAnotherThread(() -> cleanup(table, plainStorage()).execute());
      } catch (Throwable refused) {
        second.add(refused);
      }
      filesAfterSecond.add(files(table));
    });

    CleanupResult first = cleanup(table, faulty(faults)).execute();

    assertThat(second).as("the second run's failure").singleElement()
        .isInstanceOf(LeaseHeldException.class)
        .extracting(Throwable::getMessage).asString()
        .contains("Cannot clean " + TableLocation.of(table.toString()))
        .contains("holds the table's lease: run clean-")
        .contains("(pid " + ProcessHandle.current().pid() + ")")
        .contains(", since ")
        .contains("Nothing was deleted");
    assertThat(filesAfterSecond).as("files once the second run failed").containsExactly(pristineFiles);
    assertThat(files(table)).as("files after the first run vs Lance's cleanup").isEqualTo(lanceFiles);
    CleanupCounters c = first.counters();
    assertThat(c.dataFilesRemoved() + c.deletionFilesRemoved() + c.indexFilesRemoved() + c.transactionFilesRemoved()
            + c.manifestFilesRemoved() + c.otherFilesRemoved())
        .as("the first run reports every file it removed, none left to the other").isEqualTo(removedByLance().size());
  }

  @Test
  void aDryRunTakesNoLeaseAndARealRunWaitsForTheHolder() throws Exception {
    Path table = copyOfPristine();
    TableLease other = holdLeaseElsewhere(table, Instant.now(), Duration.ofDays(1));

    CleanupResult dry = cleanup(table, plainStorage()).dryRun(true).execute();
    assertThat(dry.counters().oldVersions()).as("the dry run ran, beside the holder").isEqualTo(expiredManifests().size());
    assertThatThrownBy(() -> cleanup(table, plainStorage()).execute())
        .isInstanceOf(LeaseHeldException.class)
        .hasMessageContaining("run elsewhere on host other-host (pid 4242)");
    assertThat(files(table)).as("files: neither run deleted").isEqualTo(pristineFiles);
    assertThat(leaseFiles(table)).as("the dry run wrote no lease").hasSize(1);
    other.close();
  }

  @Test
  void anExpiredLeaseIsTakenOverByTheNextRun() throws Exception {
    Path table = copyOfPristine();
    // A holder on another machine that stopped renewing an hour ago.
    holdLeaseElsewhere(table, Instant.now().minus(Duration.ofHours(1)), Duration.ofMinutes(5));

    cleanup(table, plainStorage()).execute();

    assertThat(files(table)).isEqualTo(lanceFiles);
  }

  @Test
  void theLeaseIsReleasedWhenARunEndsAndWhenItFails() {
    Path done = copyOfPristine();
    cleanup(done, plainStorage()).execute();
    // The run's own take and its release: older generations go when the next run takes the lease.
    assertThat(leaseFiles(done)).as("after a run: its lease, then the release").hasSize(2).last().satisfies(file ->
        assertThat(java.nio.file.Files.readString(done.resolve(TableLease.DIR).resolve(file))).contains("released=true"));

    Path failed = copyOfPristine();
    ManifestEdits.truncateToHalf(failed.resolve(expiredManifests().last()));
    assertThatThrownBy(() -> cleanup(failed, plainStorage()).execute()).isInstanceOf(CorruptTableException.class);
    assertThat(leaseFiles(failed)).as("after a failed run: its lease, then the release").hasSize(2).last().satisfies(file ->
        assertThat(java.nio.file.Files.readString(failed.resolve(TableLease.DIR).resolve(file))).contains("released=true"));
  }

  /** A lease held by a run of another machine, taken at {@code since}, on its own thread. */
  private static TableLease holdLeaseElsewhere(Path table, Instant since, Duration timeout) throws Exception {
    return Leases.holdElsewhere(plainStorage().open(TableLocation.of(table.toString())), since, timeout);
  }

  /** The lease's files in the table's maintenance directory, oldest generation first (beside them: the run records, the ledger). */
  private static List<String> leaseFiles(Path table) {
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(table.resolve(TableLease.DIR))) {
      return files.map(file -> file.getFileName().toString()).filter(name -> name.startsWith("cleanup.lease.")).sorted().toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- kill -9 of a child JVM (the matrix: LocalCrashMatrixIT)

  @Test
  void theCrashMatrixCoversEveryCrashPoint() {
    assertThat(CrashPoint.values()).hasSize(CrashPoint.COUNT);
  }

  // ---------------------------------------------------------------- delete failures

  @Test
  void failedDeletesAreCountedLoggedAndKeepTheExpiredManifests() {
    Path table = copyOfPristine();
    String refused = firstRemovedUnder("data/");
    Faults faults = new Faults().failDeletesOf(refused::equals);

    CleanupResult result;
    PrintStream stderr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      result = cleanup(table, faulty(faults)).execute();
    } finally {
      System.setErr(stderr);
    }

    assertThat(result.counters().failedDeletes()).as("failed_deletes").isEqualTo(1);
    assertThat(result.counters().oldVersions()).as("old_versions: no manifest removed").isZero();
    TreeSet<String> expectedLeft = new TreeSet<>(lanceFiles);
    expectedLeft.addAll(expiredManifests());
    expectedLeft.add(refused);
    assertThat(files(table)).as("everything else went").isEqualTo(expectedLeft);
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .as("the failure is logged with its path")
        .contains("Cannot delete " + refused)
        .contains("injected failure");
  }

  @Test
  void runAfterFailedDeletesLeavesWhatLanceLeaves() {
    Path table = copyOfPristine();
    String refused = firstRemovedUnder("data/");
    cleanup(table, faulty(new Faults().failDeletesOf(refused::equals))).execute();

    CleanupResult second = cleanup(table, plainStorage()).execute();

    assertThat(files(table)).isEqualTo(lanceFiles);
    assertThat(second.counters().dataFilesRemoved()).as("the refused file, now deleted").isEqualTo(1);
    assertThat(second.counters().oldVersions()).isEqualTo(expiredManifests().size());
  }

  @Test
  void deletesExpiredManifestsLastAndReadsOnlyManifestsAndRefs() {
    Path table = copyOfPristine();
    CountingTableStorage.Log log = new CountingTableStorage.Log();

    cleanup(table, CountingTableStorage.factory(log)).execute();

    List<String> deleted = log.deleted();
    assertThat(new TreeSet<>(deleted)).isEqualTo(removedByLance());
    int firstManifest = deleted.indexOf(deleted.stream().filter(p -> p.startsWith("_versions/")).findFirst().orElseThrow());
    assertThat(deleted.subList(firstManifest, deleted.size()))
        .as("once manifests are deleted, nothing else is")
        .allMatch(path -> path.startsWith("_versions/"));
    assertThat(log.read())
        .as("plan and mark read manifests and refs, never data")
        .allMatch(path -> path.startsWith("_versions/") || path.startsWith("_refs/"));
  }

  // ---------------------------------------------------------------- concurrent writers

  @Test
  void aCommitLandingAfterMarkLosesNothing() {
    Path table = copyOfPristine();
    LanceTableFixture writer = LanceTableFixture.open(table);
    List<Long> committed = Collections.synchronizedList(new ArrayList<>());
    Faults faults = new Faults().beforeFirstListing(() -> committed.add(writer.append(7)));

    // Lance's own rule under a commit in flight: the retention guard lifted explicitly.
    cleanup(table, faulty(faults)).deleteUnverified(true).allowShortRetention(true).execute();

    assertNewCommitSurvives(table, committed);
  }

  @Test
  void aCommitLandingAfterListingLosesNothing() {
    Path table = copyOfPristine();
    LanceTableFixture writer = LanceTableFixture.open(table);
    List<Long> committed = Collections.synchronizedList(new ArrayList<>());
    Faults faults = new Faults().beforeFirstDelete(() -> committed.add(writer.append(7)));

    // Lance's own rule under a commit in flight: the retention guard lifted explicitly.
    cleanup(table, faulty(faults)).deleteUnverified(true).allowShortRetention(true).execute();

    assertNewCommitSurvives(table, committed);
  }

  private static void assertNewCommitSurvives(Path table, List<Long> committed) {
    assertThat(committed).hasSize(1);
    long version = committed.get(0);
    TableContent content = ReadBack.read(table, Ref.ofMain(version));
    assertThat(content).as("the version committed during cleanup reads back").isInstanceOf(TableContent.Readable.class);
    long previousRows = ((TableContent.Readable) retained.get(version - 1)).rows();
    assertThat(((TableContent.Readable) content).rows()).isEqualTo(previousRows + 7);
    assertRetainedVersionsReadBack(table);
  }

  // ---------------------------------------------------------------- damaged tables

  @Test
  void truncatedManifestFailsTheRunNamingTheFileAndDeletesNothing() {
    Path table = copyOfPristine();
    String manifest = expiredManifests().last();
    ManifestEdits.truncateToHalf(table.resolve(manifest));

    assertThatThrownBy(() -> cleanup(table, plainStorage()).execute())
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(manifest);

    assertThat(files(table)).isEqualTo(pristineFiles);
  }

  @Test
  void unreadableTagFailsTheRunNamingTheFileAndDeletesNothing() {
    Path table = copyOfPristine();
    LanceTableFixture.open(table).plant("_refs/tags/broken.json", "{\"version\": ".getBytes(StandardCharsets.UTF_8), Instant.now());
    TreeSet<String> before = files(table);

    assertThatThrownBy(() -> cleanup(table, plainStorage()).execute())
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("_refs/tags/broken.json");

    assertThat(files(table)).isEqualTo(before);
  }

  @Test
  void referenceEscapingTheTableRootFailsTheRunAndDeletesNothing() {
    Path table = copyOfPristine();
    String manifest = expiredManifests().first();
    ManifestEdits.replaceFirstDataFilePath(table.resolve(manifest), "../../outside.lance");

    assertThatThrownBy(() -> cleanup(table, plainStorage()).execute())
        .isInstanceOf(PathEscapeException.class)
        .hasMessageContaining("../../outside.lance")
        .hasMessageContaining(manifest);

    assertThat(files(table)).isEqualTo(pristineFiles);
  }

  // ---------------------------------------------------------------- dry run

  @Test
  void dryRunDeletesNothingAndListsExactlyWhatARealRunDeletes() {
    Path dryTable = copyOfPristine();
    Path realTable = copyOfPristine();
    List<CandidateFile> listed = Collections.synchronizedList(new ArrayList<>());
    List<CandidateFile> deleted = Collections.synchronizedList(new ArrayList<>());

    CleanupResult dry = cleanup(dryTable, plainStorage()).dryRun(true).onRemovedFile(listed::add).execute();
    CleanupResult real = cleanup(realTable, plainStorage()).onRemovedFile(deleted::add).execute();

    assertThat(files(dryTable)).as("a dry run deletes nothing").isEqualTo(pristineFiles);
    assertThat(new HashSet<>(listed)).as("dry-run rows vs the real run's").isEqualTo(new HashSet<>(deleted));
    assertThat(paths(listed)).as("what the real run deleted").isEqualTo(minus(pristineFiles, files(realTable)));
    assertThat(dry.counters()).as("counters").isEqualTo(real.counters());
  }

  // ---------------------------------------------------------------- helpers

  private static CleanupAction cleanup(Path table, TableStorageFactory storage) {
    return cleanup(table, storage, Path.of(System.getProperty("java.io.tmpdir")));
  }

  private static CleanupAction cleanup(Path table, TableStorageFactory storage, Path spills) {
    // Every record through the disk: the conformance suite runs the engine with its spills in
    // memory (these tables fit), so the failures here cover the path large tables take.
    return new LocalCleanupAction(TableLocation.of(table.toString()), storage, Clock.systemUTC())
        .spillDirectory(spills)
        .inMemorySpillRecords(0)
        .parallelism(4)
        .partitions(5)
        .sliceSize(2)
        .beforeTimestamp(cutoff);
  }

  private static TableStorageFactory plainStorage() {
    return HadoopTableStorage.factory(StorageConf.defaults());
  }

  private static TableStorageFactory faulty(Faults faults) {
    return FaultyTableStorage.factory(faults);
  }

  private static void assertRetainedVersionsReadBack(Path table) {
    retained.forEach((version, content) ->
        assertThat(ReadBack.read(table, Ref.ofMain(version))).as("v%d reads back", version).isEqualTo(content));
  }

  private static Path copyOfPristine() {
    Path copy = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(pristine, copy);
    return copy;
  }

  private static TreeSet<String> removedByLance() {
    return minus(pristineFiles, lanceFiles);
  }

  private static TreeSet<String> expiredManifests() {
    TreeSet<String> manifests = new TreeSet<>();
    removedByLance().stream().filter(p -> p.endsWith(".manifest")).forEach(manifests::add);
    return manifests;
  }

  private static String firstRemovedUnder(String dir) {
    return removedByLance().stream().filter(p -> p.startsWith(dir)).findFirst().orElseThrow();
  }

  private static TreeSet<String> files(Path table) {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }

  private static TreeSet<String> paths(List<CandidateFile> candidates) {
    TreeSet<String> paths = new TreeSet<>();
    candidates.forEach(c -> paths.add(c.path()));
    return paths;
  }

  private static TreeSet<String> minus(TreeSet<String> a, TreeSet<String> b) {
    TreeSet<String> result = new TreeSet<>(a);
    result.removeAll(b);
    return result;
  }
}
