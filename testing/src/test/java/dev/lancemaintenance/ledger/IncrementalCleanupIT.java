package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.MissingFilesException;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.CountingTableStorage;
import dev.lancemaintenance.storage.FailingWalk;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.ReleaseWatch;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The local engine runs the thirty days of maintenance with the ledger, and, since reading and
 * writing the ledger is the same code on every engine, also what the ledger survives: deleted, cut
 * short, corrupted, left half-written by a killed run, copied from another table, refused by the
 * store. Every run after the damage is still exact.
 */
class IncrementalCleanupIT extends IncrementalCleanupContract {
  /** The walk's buffer per directory the runs use; empty: the default. */
  private OptionalLong walkAheadBytes = OptionalLong.empty();

  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    LocalCleanupAction cleanup = new LocalCleanupAction(TableLocation.of(tableUri), storage, Clock.systemUTC());
    walkAheadBytes.ifPresent(cleanup::walkAheadBytes);
    return cleanup;
  }

  @Test
  void whateverHappensToTheLedgerTheRunsLeaveWhatTheSdkLeaves() {
    Path root = work.resolve("damaged");
    LanceTableFixture table = LanceTableFixture.create(root);
    int day = 0;
    for (Consumer<LanceTableFixture> commits : days().subList(0, 8)) {
      commits.accept(table);
      cleanAndCompare(table, new Policy(1 + day % 3), "day " + ++day);
    }
    List<Consumer<Path>> damages = List.of(
        IncrementalCleanupIT::deleteLedger,
        IncrementalCleanupIT::cutHeadCommitShort,
        IncrementalCleanupIT::flipAByteOfASegment,
        IncrementalCleanupIT::leaveAKilledWritersFiles,
        this::copyAnotherTablesLedger);
    for (Consumer<Path> damage : damages) {
      damage.accept(root);
      table.append(5);
      cleanAndCompare(table, new Policy(2), "damaged ledger, run " + ++day);
      cleanAndCompare(table, new Policy(1), "after the rebuild, run " + day);
    }
  }

  /**
   * Today's path commits what it summarised run after run, through the ledger's compaction: what
   * compacts is the run's own fold, already continued by its summaries. It used to be continued a
   * second time, which failed, so from the sixteenth append on no run committed and every later run
   * decoded all the versions since.
   */
  @Test
  void runAfterRunTheLedgerReachesTheNewestVersionThroughItsCompaction() {
    LanceTableFixture table = LanceTableFixture.create(work.resolve("compacting"));
    table.append(5);
    for (int run = 1; run <= Ledger.COMPACT_AT_SEGMENTS + 2; run++) {
      table.append(5);
      cleanAndCompare(table, new Policy(2), "run " + run, MarkMode.VERIFY);
      assertLedgerEndsAtTheNewestVersion(table, "run " + run);
    }
  }

  /** The ledger read after a run ends at the table's newest version, in fewer segments than compact. */
  private static void assertLedgerEndsAtTheNewestVersion(LanceTableFixture table, String after) {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults())) {
      LedgerRead read = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC()).read();
      assertThat(read.state()).as("the ledger after %s", after).get()
          .extracting(LedgerState::endVersion).isEqualTo(table.latestVersion());
      assertThat(read.commit().orElseThrow().segments()).as("its segments after %s", after)
          .hasSizeLessThan(Ledger.COMPACT_AT_SEGMENTS);
    }
  }

  /**
   * The daily runs decide from the previous run's key snapshot (docs/ledger.md, section 12) on every
   * day it can describe, and leave what the SDK leaves: day 1 has none yet; days 2 to 8 take it
   * (appends, a delete, an index, a tag added, moved and deleted, a compaction, a Restore of the
   * tagged version); from day 9 a branch reads the table and every run takes today's path. The path
   * a run took shows in what it read: today's path reads the whole ledger, the snapshot's reads the
   * snapshot and of the ledger only its head commit.
   */
  @Test
  void dayAfterDayTheKeySnapshotDecidesWhereItCanAndTheRunsLeaveWhatTheSdkLeaves() {
    assertThat(daysFromTheKeySnapshot("key-snapshot")).as("the days decided from the key snapshot")
        .containsExactly(2, 3, 4, 5, 6, 7, 8);
  }

  /**
   * The same days with the walks' buffers at one name (LocalCleanupAction#walkAheadBytes): the walk
   * of every directory with more names than that fills its buffer during the mark and waits, and the
   * listing task takes the buffered names and the rest of the walk once the answers exist. A name
   * lost between the buffer and the settling (a file that goes left behind), or one given twice (a
   * file counted or deleted twice, a kept file's gate flag set by another name), leaves another
   * table than the SDK's cleanup does.
   */
  @Test
  void dayAfterDayWithTheWalksBufferExceededTheRunsLeaveWhatTheSdkLeaves() {
    walkAheadBytes = OptionalLong.of(1);
    assertThat(daysFromTheKeySnapshot("walk-ahead")).as("the days decided from the key snapshot")
        .containsExactly(2, 3, 4, 5, 6, 7, 8);
    assertNoWalkLeft();
  }

  /**
   * The walk of data/ fails midway, after it filled its buffer during the mark: the run fails with
   * the walk's error before its decision, deletes nothing, and leaves no walker behind; the next
   * run leaves what the SDK leaves.
   */
  @Test
  void aWalkThatFailsMidwayOnTheKeySnapshotsPathFailsTheRunBeforeItsFirstDelete() {
    LanceTableFixture table = walkingOneNameAheadAfterAFirstRun("walk-fails");
    StorageException broken = new StorageException("list", "data", new IOException("the disk went away"));
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    TableStorageFactory failing = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
        Iterator<FileEntry> walk = super.listFilesDeferringAttributes(dir, recursive);
        return dir.equals("data") ? FailingWalk.after(3, broken, walk) : walk;
      }
    };
    List<String> before = lanceFiles(table.root());
    assertThatThrownBy(() -> run(table.root(), MarkMode.INCREMENTAL, failing, new Policy(1), table.latestVersion()))
        .isSameAs(broken);
    assertThat(lanceFiles(table.root())).as("nothing deleted").isEqualTo(before);
    assertNoWalkLeft();
    cleanAndCompare(table, new Policy(1), "the run after", MarkMode.INCREMENTAL);
  }

  /**
   * The mark from the key snapshot fails (a new manifest cannot be read) while the walk of data/
   * waits for room in its buffer: the run fails with the mark's error, deletes nothing, and the
   * walker ends with it.
   */
  @Test
  void aMarkThatFailsWhileTheWalkWaitsForRoomEndsTheRunAndItsWalk() {
    LanceTableFixture table = walkingOneNameAheadAfterAFirstRun("mark-fails");
    StorageException broken = new StorageException("read", "_versions", new IOException("the disk went away"));
    AtomicBoolean walkWaited = new AtomicBoolean();
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    TableStorageFactory failing = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public byte[] read(String path, long offset, int length) {
        Optional<Thread> walker = walkThreads().stream().filter(t -> t.getName().endsWith("-data")).findFirst();
        if (path.startsWith("_versions/") && walker.isPresent()) {
          while (walker.get().getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
          }
          walkWaited.set(true);
          throw broken;
        }
        return super.read(path, offset, length);
      }
    };
    List<String> before = lanceFiles(table.root());
    assertThatThrownBy(() -> run(table.root(), MarkMode.INCREMENTAL, failing, new Policy(1), table.latestVersion()))
        .isSameAs(broken);
    assertThat(walkWaited).as("the mark failed while the walk of data/ waited for room").isTrue();
    assertThat(lanceFiles(table.root())).as("nothing deleted").isEqualTo(before);
    assertNoWalkLeft();
  }

  /**
   * A table after a first run and four appends since (a daily run decides from the key snapshot),
   * its runs walking one name ahead, so that the walk of data/ waits for room during the mark.
   */
  private LanceTableFixture walkingOneNameAheadAfterAFirstRun(String name) {
    LanceTableFixture table = afterAFirstRun(name, 4, new Policy(3));
    for (int i = 0; i < 4; i++) {
      table.append(5);
    }
    walkAheadBytes = OptionalLong.of(1);
    return table;
  }

  private static List<Thread> walkThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive).filter(t -> t.getName().startsWith("lance-cleanup-walk-")).toList();
  }

  /** The run waits for its walkers to end before it returns or throws. */
  private static void assertNoWalkLeft() {
    assertThat(walkThreads()).as("walkers left after the run").isEmpty();
  }

  /**
   * What a key snapshot survives: cut short, a byte changed, another table's, an older run's (whose
   * versions are no longer the listed ones), an SDK cleanup between two runs. Each run after the
   * damage takes today's path and leaves what the SDK leaves; the one after it decides from the
   * snapshot again. And what happens to files between two runs is decided as today: a back-dated
   * orphan planted, a young one, a referenced file deleted and written again under its name.
   */
  @Test
  void whateverHappensToTheKeySnapshotTheRunsLeaveWhatTheSdkLeaves() throws IOException {
    LanceTableFixture table = afterAFirstRun("damaged-keys", 4, new Policy(3));
    Path root = table.root();
    Path older = work.resolve("older-keys");
    Files.copy(newestKeySnapshot(root), older);
    List<Consumer<Path>> damages = List.of(
        keys -> rewrite(newestKeySnapshot(keys), bytes -> java.util.Arrays.copyOf(bytes, bytes.length - 9)),
        keys -> rewrite(newestKeySnapshot(keys), bytes -> {
          bytes[bytes.length / 2] ^= 0x21;
          return bytes;
        }),
        this::copyAnotherTablesKeySnapshot,
        keys -> restoreAsNewest(keys, older),
        keys -> assertThat(LanceOracle.cleanup(keys, new Policy(1).sdk(table.latestVersion())))
            .isInstanceOf(OracleOutcome.Removed.class));
    int run = 0;
    for (Consumer<Path> damage : damages) {
      table.append(5);
      table.append(5);
      cleanAndCompare(table, new Policy(2), "before damage " + ++run, MarkMode.INCREMENTAL);
      assertThat(takesTheKeySnapshot(table, new Policy(2), "undamaged " + run)).isTrue();
      damage.accept(root);
      table.append(5);
      assertThat(takesTheKeySnapshot(table, new Policy(2), "damaged " + run)).as("damage %d", run).isFalse();
    }
    // Files between two runs: a back-dated orphan, a young one, a kept file written again.
    table.append(5);
    cleanAndCompare(table, new Policy(2), "before the planted files", MarkMode.INCREMENTAL);
    table.append(5);
    table.plant("data/planted-old.lance", new byte[] {1, 2, 3}, Instant.now().minus(Duration.ofDays(30)));
    table.plant("data/planted-young.lance", new byte[] {1, 2, 3}, Instant.now().minus(Duration.ofDays(1)));
    String kept = keptDataFile(root);
    byte[] content = Files.readAllBytes(root.resolve(kept));
    Files.delete(root.resolve(kept));
    Files.write(root.resolve(kept), content);
    assertThat(takesTheKeySnapshot(table, new Policy(2), "planted files")).isTrue();
    assertThat(root.resolve("data/planted-old.lance")).doesNotExist();
    assertThat(root.resolve("data/planted-young.lance")).exists();
    assertThat(root.resolve(kept)).exists();
  }

  /**
   * The referenced-files gate on the key snapshot's path: the listing settles each name answered
   * {@code KEPT} itself and never hands it to the decision, yet counts it for the gate. A kept data
   * file deleted between two runs refuses the next one, naming it, before its first delete, though
   * its policy expires versions whose files would go.
   */
  @Test
  void onTheKeySnapshotsPathAMissingKeptFileRefusesTheRunBeforeItsFirstDelete() throws IOException {
    LanceTableFixture table = LanceTableFixture.create(work.resolve("missing-kept"));
    for (int i = 0; i < 4; i++) {
      table.append(5);
    }
    cleanAndCompare(table, new Policy(3), "first run", MarkMode.INCREMENTAL);
    table.append(5);
    table.append(5);
    assertThat(takesTheKeySnapshot(table, new Policy(3), "second run")).isTrue();
    table.append(5);
    table.append(5);
    Path root = table.root();
    String kept = keptDataFile(root);
    Files.delete(root.resolve(kept));
    List<String> before = lanceFiles(root);
    assertThatThrownBy(() -> run(root, MarkMode.INCREMENTAL, HadoopTableStorage.factory(StorageConf.defaults()),
        new Policy(1), table.latestVersion()))
        .isInstanceOf(MissingFilesException.class)
        .hasMessageContaining("1 file(s) that retained versions reference are not in the table's listing (" + kept + ")");
    assertThat(lanceFiles(root)).as("nothing deleted").isEqualTo(before);
  }

  /**
   * Runs that decide from the key snapshot append their new versions to the ledger (docs/ledger.md,
   * section 12.4), through its compaction, so that a run that must take today's path later decodes
   * only the versions since the last run, not every version since the ledger's last commit by
   * today's path; and it leaves what the SDK leaves.
   */
  @Test
  void aFallbackAfterDaysOnTheKeySnapshotDecodesOnlyTheVersionsSinceTheLastRun() {
    LanceTableFixture table = LanceTableFixture.create(work.resolve("snapshot-then-fallback"));
    table.append(5);
    table.append(5);
    cleanAndCompare(table, new Policy(2), "first run", MarkMode.INCREMENTAL);
    for (int day = 1; day <= Ledger.COMPACT_AT_SEGMENTS + 2; day++) {
      table.append(5);
      assertThat(takesTheKeySnapshot(table, new Policy(1 + day % 3), "day " + day)).as("day %d", day).isTrue();
      assertLedgerEndsAtTheNewestVersion(table, "day " + day);
    }
    // The snapshot lost: today's path, from the ledger the snapshot's runs kept up.
    deleteKeySnapshots(table.root());
    long before = table.latestVersion();
    table.append(5);
    table.append(5);
    String log = getClass().getSimpleName() + "-fallback-" + System.nanoTime();
    cleanAndCompare(table, new Policy(2), "the fallback", MarkMode.INCREMENTAL, CountingTableStorage.sharedFactory(log));
    assertThat(CountingTableStorage.sharedLog(log).read().stream()
        .filter(path -> path.endsWith(".manifest")).distinct().toList())
        .as("manifests the fallback decoded: the two versions since the last run")
        .containsExactlyInAnyOrder(manifestName(before + 1), manifestName(before + 2));
  }

  private static Path newestKeySnapshot(Path root) {
    List<Path> snapshots = ledgerFiles(root, "keys.");
    assertThat(snapshots).as("key snapshots of %s", root).hasSize(1);
    return snapshots.get(0);
  }

  /** An older run's snapshot, put back as the newest generation. */
  private static void restoreAsNewest(Path root, Path older) {
    Path newest = newestKeySnapshot(root);
    long generation = Long.parseLong(newest.getFileName().toString().substring("keys.".length()));
    try {
      Files.delete(newest);
      Files.copy(older, newest.resolveSibling(String.format("keys.%019d", generation + 1)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void copyAnotherTablesKeySnapshot(Path root) {
    LanceTableFixture other = LanceTableFixture.create(work.resolve("other-keys"));
    other.append(3);
    other.append(3);
    run(other.root(), MarkMode.INCREMENTAL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(1), other.latestVersion());
    restoreAsNewest(root, newestKeySnapshot(other.root()));
  }

  /**
   * The referenced-files gate on the key snapshot's path is a count of hashes; a run it refuses
   * still names the file, as every other refusal does (the kept versions' manifests decoded for the
   * message), and deletes nothing.
   */
  @Test
  void aKeptFileRemovedBetweenTwoRunsOnTheKeySnapshotRefusesTheRunNamingIt() throws IOException {
    LanceTableFixture table = afterAFirstRun("missing-kept", 3, new Policy(2));
    Path root = table.root();
    table.append(5);
    String kept = keptDataFile(root);
    Files.delete(root.resolve(kept));
    List<String> before = lanceFiles(root);
    LedgerReads reads = new LedgerReads();

    assertThatThrownBy(() -> run(root, MarkMode.INCREMENTAL, reads.factory(), new Policy(2), table.latestVersion()))
        .isInstanceOf(MissingFilesException.class)
        .hasMessageContaining("1 file(s) that retained versions reference are not in the table's listing (" + kept + ")");
    assertThat(reads.decidedFromTheKeySnapshot()).as("the run decided from the key snapshot").isTrue();
    assertThat(lanceFiles(root)).as("a refused run deletes nothing").isEqualTo(before);
  }

  /**
   * The key snapshots, the ledger's commits and the expiry records share one directory, which the
   * run lists once, on the read-ahead's thread beside the plan, whichever path it then takes (on an
   * object store each listing is a LIST round trip): the snapshot's path read the snapshot from it,
   * and a run whose snapshot cannot be used reads the ledger and the expiry records from it too.
   * Until now the first listed it three times and the second five, and the snapshot's path listed
   * it once more to append to the ledger.
   */
  @Test
  void theLedgersDirectoryIsListedOnceForTheSnapshotTheLedgerAndTheExpiryRecords() {
    LanceTableFixture table = afterAFirstRun("listed-once", 3, new Policy(2));
    table.append(5);
    LedgerReads onTheSnapshot = new LedgerReads();
    cleanAndCompare(table, new Policy(2), "on the snapshot", MarkMode.INCREMENTAL, onTheSnapshot.factory());
    assertThat(onTheSnapshot.decidedFromTheKeySnapshot()).as("decided from the snapshot").isTrue();
    assertThat(onTheSnapshot.listingsToMark()).as("listings of the ledger's directory to mark (%s)", onTheSnapshot.directoryListers())
        .isEqualTo(1);
    // Beside the release, the append to the ledger finds its head and what to prune in that listing
    // too, and the snapshot's write the generations it replaces.
    assertThat(onTheSnapshot.directoryListers()).as("listings of the ledger's directory in all (%s)", onTheSnapshot.directoryListers())
        .hasSize(1);

    rewrite(newestKeySnapshot(table.root()), bytes -> java.util.Arrays.copyOf(bytes, bytes.length - 9));
    table.append(5);
    LedgerReads fallingBack = new LedgerReads();
    cleanAndCompare(table, new Policy(2), "a snapshot cut short", MarkMode.INCREMENTAL, fallingBack.factory());
    assertThat(fallingBack.ledgerReadOnlyToCompact()).as("read the ledger to mark").isFalse();
    assertThat(fallingBack.listingsToMark()).as("listings of the ledger's directory to mark (%s)", fallingBack.directoryListers())
        .isEqualTo(1);
  }

  /**
   * A run on the key snapshot's path commits the ledger and then writes the snapshot under its
   * lease, and deletes the older commit and the older snapshot, chosen from its listing of the
   * directory, in one batch beside the release (docs/ledger.md, section 12.4, "The prunes beside
   * the release"): the delete is held until the release was sent, which would hold the run ten
   * seconds and fail the test if the release waited for it. The next run decides from the snapshot
   * this one left, and both leave what the SDK leaves.
   */
  @Test
  void theLedgersAndTheSnapshotsOldGenerationsAreDeletedBesideTheRelease() throws IOException {
    LanceTableFixture table = afterAFirstRun("prunes-beside", 3, new Policy(2));
    List<String> firstGenerations = ledgerFiles(table.root());
    table.append(5);
    List<String> events = new CopyOnWriteArrayList<>();
    List<String> deleted = new CopyOnWriteArrayList<>();
    ReleaseWatch release = new ReleaseWatch(events);
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    TableStorageFactory watched = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        boolean created = super.createIfAbsent(path, content);
        release.created(path, content);
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (path.startsWith(Ledger.DIR + "/") && (name.startsWith("commit.") || name.startsWith("keys."))) {
          events.add("write " + name.substring(0, name.indexOf('.')));
        }
        return created;
      }

      @Override
      public List<DeleteFailure> deleteBatch(List<String> paths) {
        if (!paths.isEmpty() && paths.stream().allMatch(path -> path.startsWith(Ledger.DIR + "/"))) {
          release.holdUntilReleased();
          events.add("delete");
          paths.forEach(path -> deleted.add(path.substring(path.lastIndexOf('/') + 1)));
        }
        return super.deleteBatch(paths);
      }
    };

    cleanAndCompare(table, new Policy(2), "on the snapshot", MarkMode.INCREMENTAL, watched);

    assertThat(events).as("the ledger's commit, then the snapshot, under the lease; the old generations beside the release"
            + " (one batch on an object store, one delete per file on a local disk)")
        .startsWith("write commit", "write keys", "release", "delete").containsOnlyOnce("write commit", "write keys", "release");
    assertThat(deleted).as("the old generations, chosen from the run's listing").containsExactlyInAnyOrderElementsOf(firstGenerations);
    assertThat(release.everyHeldDeleteSawTheRelease()).as("the release went while the delete waited").isTrue();
    assertThat(ledgerFiles(table.root())).as("one commit and one snapshot left, both new")
        .hasSize(2).doesNotContainAnyElementsOf(firstGenerations);
    table.append(5);
    assertThat(takesTheKeySnapshot(table, new Policy(2), "the next run")).as("the next run decides from the snapshot left").isTrue();
  }

  /**
   * On the key snapshot's path the ledger's head commit is read beside the plan, not at the
   * append, and the snapshot's create waits for the ledger commit's create, not for its read-back
   * ({@link KeySnapshotMark.Outcome#leaveNext}): the read-back is held until the snapshot was
   * created, which would hold the run ten seconds and fail the test if the snapshot waited for it.
   * The commit's create still comes first, the order a run killed between relies on.
   */
  @Test
  void theSnapshotIsCreatedAfterTheLedgersCommitBesideItsReadBack() {
    LanceTableFixture table = afterAFirstRun("snapshot-beside-read-back", 3, new Policy(2));
    table.append(5);
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch snapshotCreated = new CountDownLatch(1);
    AtomicBoolean readBackWaitedInVain = new AtomicBoolean();
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    TableStorageFactory watched = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        boolean created = super.createIfAbsent(path, content);
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (path.startsWith(Ledger.DIR + "/") && name.startsWith("commit.")) {
          events.add("create commit");
        } else if (path.startsWith(Ledger.DIR + "/") && name.startsWith("keys.")) {
          events.add("create keys");
          snapshotCreated.countDown();
        }
        return created;
      }

      @Override
      public byte[] read(String path, long offset, int length) {
        if (!path.startsWith(Ledger.DIR + "/commit.")) {
          return super.read(path, offset, length);
        }
        if (Thread.currentThread().getName().equals("lance-ledger-append")) {
          try {
            readBackWaitedInVain.compareAndSet(false, !snapshotCreated.await(10, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          events.add("read back commit");
        } else {
          events.add("read commit on " + Thread.currentThread().getName());
        }
        return super.read(path, offset, length);
      }
    };

    cleanAndCompare(table, new Policy(2), "on the snapshot", MarkMode.INCREMENTAL, watched);

    assertThat(events).as("the head read beside the plan; the commit created before the snapshot, read back beside it")
        .containsExactly("read commit on lance-ledger-head", "create commit", "create keys", "read back commit");
    assertThat(readBackWaitedInVain).as("the snapshot was created while the read-back waited").isFalse();
    table.append(5);
    assertThat(takesTheKeySnapshot(table, new Policy(2), "the next run")).as("the next run decides from the snapshot left").isTrue();
  }

  /** The ledger's commits and key snapshots, by name, sorted. */
  private static List<String> ledgerFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.list(root.resolve(Ledger.DIR))) {
      return files.map(file -> file.getFileName().toString())
          .filter(name -> name.startsWith("commit.") || name.startsWith("keys.")).sorted().toList();
    }
  }

  /** A table of {@code appends} appends after its first incremental run (today's path: the ledger and the first key snapshot). */
  private LanceTableFixture afterAFirstRun(String name, int appends, Policy policy) {
    LanceTableFixture table = LanceTableFixture.create(work.resolve(name));
    for (int i = 0; i < appends; i++) {
      table.append(5);
    }
    cleanAndCompare(table, policy, "first run", MarkMode.INCREMENTAL);
    return table;
  }

  /** A data file the newest version references (the newest data file: appends write one each). */
  private static String keptDataFile(Path root) throws IOException {
    try (Stream<Path> files = Files.list(root.resolve("data"))) {
      Path newest = files.filter(p -> p.getFileName().toString().endsWith(".lance"))
          .filter(p -> !p.getFileName().toString().startsWith("planted"))
          .max(java.util.Comparator.comparing(p -> p.toFile().lastModified())).orElseThrow();
      return "data/" + newest.getFileName();
    }
  }

  @Test
  void aStoreThatRefusesTheLedgerStillCleansAsAFullRun() throws IOException {
    LanceTableFixture table = LanceTableFixture.create(work.resolve("refusing"));
    for (int i = 0; i < 4; i++) {
      table.append(5);
    }
    table.compact();
    Path twin = work.resolve("refusing-twin");
    TableTwins.copy(table.root(), twin);
    // A file where the ledger's directory should be: every ledger write fails.
    Files.createDirectories(table.root().resolve("_maintenance"));
    Files.write(table.root().resolve(Ledger.DIR), new byte[] {0});
    long latest = table.latestVersion();
    CleanupResult incremental = run(table.root(), MarkMode.INCREMENTAL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(1), latest);
    CleanupResult full = run(twin, MarkMode.FULL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(1), latest);
    assertThat(incremental.counters()).as("what the run removed").isEqualTo(full.counters());
    assertThat(lanceFiles(table.root())).isEqualTo(lanceFiles(twin));
    assertThat(full.counters().oldVersions()).isGreaterThan(0);
  }

  @Test
  void aLedgerReadBeforeThePlanIsCheckedAgainstThePlansListing() throws IOException {
    // The local engine reads and folds the ledger beside the plan's listing of _versions/
    // (LedgerReadAhead). Here every manifest is touched just before that listing, so the ledger,
    // read before or during it, summarised files that the listing no longer shows as they were:
    // the run must find the mismatch against the plan's own listing and mark in full.
    LanceTableFixture table = LanceTableFixture.create(work.resolve("read-ahead"));
    for (int i = 0; i < 4; i++) {
      table.append(5);
    }
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    run(table.root(), MarkMode.INCREMENTAL, plain, new Policy(3), table.latestVersion());
    table.append(5);
    table.append(5);
    Path twin = work.resolve("read-ahead-twin");
    TableTwins.copy(table.root(), twin);
    AtomicBoolean touched = new AtomicBoolean();
    Path versions = table.root().resolve("_versions");
    TableStorageFactory touching = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
        if (dir.equals("_versions") && touched.compareAndSet(false, true)) {
          touchEveryManifest(versions);
        }
        return super.listFiles(dir, recursive);
      }
    };

    long latest = table.latestVersion();
    CleanupResult incremental = run(table.root(), MarkMode.INCREMENTAL, touching, new Policy(1), latest);
    CleanupResult full = run(twin, MarkMode.FULL, plain, new Policy(1), latest);

    assertThat(touched).as("the plan listed _versions/ through the wrapper").isTrue();
    assertThat(incremental.manifestsRead()).as("every listed manifest decoded: the ledger no longer answers")
        .isEqualTo(full.manifestsRead());
    assertThat(incremental.counters()).as("what the run removed").isEqualTo(full.counters());
    assertThat(lanceFiles(table.root())).isEqualTo(lanceFiles(twin));
    assertThat(full.counters().oldVersions()).isGreaterThan(0);
  }

  private static void touchEveryManifest(Path versions) {
    try (Stream<Path> manifests = Files.list(versions)) {
      for (Path manifest : manifests.filter(p -> p.getFileName().toString().endsWith(".manifest")).toList()) {
        FileTime was = Files.getLastModifiedTime(manifest);
        Files.setLastModifiedTime(manifest, FileTime.fromMillis(was.toMillis() + 5_000));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }


  private static void deleteLedger(Path root) {
    TableTwins.deleteRecursively(root.resolve(Ledger.DIR));
  }

  private static void cutHeadCommitShort(Path root) {
    List<Path> commits = ledgerFiles(root, "commit.");
    Path head = commits.get(commits.size() - 1);
    rewrite(head, bytes -> java.util.Arrays.copyOf(bytes, bytes.length / 2));
  }

  private static void flipAByteOfASegment(Path root) {
    for (Path segment : ledgerFiles(root, ".seg")) {
      rewrite(segment, bytes -> {
        bytes[bytes.length / 2] ^= 0x5a;
        return bytes;
      });
    }
  }

  private static void leaveAKilledWritersFiles(Path root) {
    try {
      Files.write(root.resolve(Ledger.DIR).resolve("seg-0000000000000000099-killed.seg"), new byte[] {'L', 'M'});
      Files.write(root.resolve(Ledger.DIR).resolve(".staged-killed"), new byte[] {1});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void copyAnotherTablesLedger(Path root) {
    LanceTableFixture other = LanceTableFixture.create(work.resolve("other"));
    other.append(3);
    other.append(3);
    run(other.root(), MarkMode.INCREMENTAL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(1), other.latestVersion());
    deleteLedger(root);
    TableTwins.copy(other.root().resolve(Ledger.DIR), root.resolve(Ledger.DIR));
  }

  private static void rewrite(Path file, java.util.function.UnaryOperator<byte[]> change) {
    try {
      Files.write(file, change.apply(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }}
