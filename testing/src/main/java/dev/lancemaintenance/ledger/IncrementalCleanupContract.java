package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.storage.CountingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LedgerReadProbe;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.ScalarIndexKind;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Thirty days of maintenance", the contract every engine runs: real commits (appends, deletes, an update, an
 * index, compaction, tags added and moved, a Restore, a branch, an overwrite) alternate with our
 * incremental cleanup in {@link MarkMode#VERIFY} (which refuses on any difference from the full
 * mark) and, on the pristine state of the same table, the SDK 7.0.0's cleanup with the same
 * policy: after every run the same files remain and every remaining manifest reads back. Then the
 * same with the ledger deleted, cut short, corrupted, left half-written by a killed run, and copied
 * from another table.
 */
public abstract class IncrementalCleanupContract {
  @TempDir protected Path work;
  private int runs;

  /** The engine's cleanup of {@code tableUri} through {@code storage}; the contract sets mode and policy. */
  protected abstract CleanupAction newCleanup(String tableUri, TableStorageFactory storage);

  /**
   * Versions older than the newest {@code keep} go (before_version, and a cutoff just ahead of now,
   * so that time does not hold any back), tagged old ones are kept.
   */
  protected record Policy(int keep, Instant cutoff) {
    public Policy(int keep) {
      this(keep, Instant.now().plusSeconds(60));
    }

    OraclePolicy sdk(long latest) {
      return OraclePolicy.builder().beforeVersion(latest - keep + 1).beforeTimestamp(cutoff).errorIfTaggedOldVersions(false).build();
    }
  }

  /** The days of commits: each shape of change once, a Restore and a branch included. */
  protected static List<Consumer<LanceTableFixture>> days() {
    return List.of(
        t -> { t.append(30); t.append(30); },
        t -> t.append(10),
        t -> t.deleteWhere("id % 4 = 0"),
        t -> t.createScalarIndex("id", ScalarIndexKind.BTREE),
        t -> { t.append(10); t.tag("kept", t.latestVersion() - 1); },
        t -> t.compact(),
        t -> { t.update(LanceTableFixture.firstId(1), 5); t.deleteTag("kept"); t.tag("kept", t.latestVersion()); },
        // The tagged version comes back after a compaction dropped its data files: old files referenced again.
        t -> { long tagged = t.latestVersion(); t.append(6); t.compact(); t.restore(tagged); },
        t -> { t.createBranch("b1", t.latestVersion()).append(7); t.append(4); },
        t -> t.branch("b1").deleteWhere("id % 2 = 0"),
        t -> { t.append(3); t.append(3); },
        t -> t.overwrite(12));
  }

  @Test
  public void incrementalCleanupsLeaveWhatTheSdkLeavesDayAfterDay() {
    LanceTableFixture table = LanceTableFixture.create(work.resolve("t"));
    int day = 0;
    for (Consumer<LanceTableFixture> commits : days()) {
      commits.accept(table);
      cleanAndCompare(table, new Policy(1 + day % 3), "day " + ++day);
    }
  }

  /**
   * The cost of each mode: a full run decodes every listed manifest; an incremental run after a
   * ledger was built decodes only the manifest committed since, not the retained ones and not the
   * expired ones (the ledger answers for both), and still removes the expired versions.
   */
  @Test
  public void aFullRunReadsEveryManifestAndASteadyIncrementalRunOnlyTheNewOne() {
    LanceTableFixture table = steadyTable("steady");
    long newest = table.latestVersion();
    List<String> listed = manifestsOf(table.root());

    String fullLog = getClass().getSimpleName() + "-full-" + System.nanoTime();
    CleanupAction full = action(table.root(), CountingTableStorage.sharedFactory(fullLog), MarkMode.FULL, new Policy(6), newest);
    full.dryRun(true).execute();
    assertThat(manifestsRead(CountingTableStorage.sharedLog(fullLog))).as("manifests a full run decodes")
        .containsExactlyInAnyOrderElementsOf(listed);

    String incrementalLog = getClass().getSimpleName() + "-incremental-" + System.nanoTime();
    CleanupResult steady = run(
        table.root(), MarkMode.INCREMENTAL, CountingTableStorage.sharedFactory(incrementalLog), new Policy(6), newest);
    assertThat(manifestsRead(CountingTableStorage.sharedLog(incrementalLog))).as("manifests a steady incremental run decodes")
        .containsExactlyInAnyOrder(manifestName(newest - 1), manifestName(newest));
    assertThat(steady.counters().oldVersions()).as("versions the steady run removed without reading them").isEqualTo(2);
  }

  /**
   * The ledger is read beside the plan's listing of {@code _versions/}, not after it: on an object
   * store the ledger's requests then leave the run's row of round trips, and on a large ledger its
   * fold overlaps the listing. Every engine reads it ahead ({@code LedgerReadAhead}); the probe holds
   * the plan's listing until the ledger's directory is listed, which a read in line, after the
   * plan, never does in time. What the run removes is checked by the thirty days above.
   */
  @Test
  public void theLedgerIsReadBesideThePlansListing() {
    LanceTableFixture table = steadyTable("read-ahead");
    // A local daily run with a key snapshot reads no ledger at all (docs/ledger.md, section 12):
    // without one, it needs the ledger, and reads it ahead.
    deleteKeySnapshots(table.root());

    String probe = getClass().getSimpleName() + "-read-ahead-" + System.nanoTime();
    CleanupResult steady = run(table.root(), MarkMode.INCREMENTAL, new LedgerReadProbe(probe), new Policy(6), table.latestVersion());

    LedgerReadProbe.Outcome outcome = LedgerReadProbe.outcome(probe);
    assertThat(outcome.answered()).as("the plan's listings of _versions/ during which the ledger was read").isPositive();
    assertThat(outcome.unanswered()).as("the plan's listings of _versions/ that the ledger's read did not overlap").isZero();
    assertThat(steady.counters().oldVersions()).as("versions the steady run removed").isEqualTo(2);
  }

  /** Eight appends, an incremental run keeping six (it builds the ledger), then two more appends. */
  private LanceTableFixture steadyTable(String name) {
    LanceTableFixture table = LanceTableFixture.create(work.resolve(name));
    for (int i = 0; i < 8; i++) {
      table.append(5);
    }
    run(table.root(), MarkMode.INCREMENTAL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(6), table.latestVersion());
    table.append(5);
    table.append(5);
    return table;
  }

  /** Runs the days on a new table in incremental mode, each compared with the SDK; the days that decided from the key snapshot. */
  protected List<Integer> daysFromTheKeySnapshot(String name) {
    LanceTableFixture table = LanceTableFixture.create(work.resolve(name));
    List<Integer> fromSnapshot = new ArrayList<>();
    int day = 0;
    for (Consumer<LanceTableFixture> commits : days()) {
      commits.accept(table);
      if (takesTheKeySnapshot(table, new Policy(1 + day % 3), "day " + ++day)) {
        fromSnapshot.add(day);
      }
    }
    return fromSnapshot;
  }

  /**
   * Cleans in incremental mode (compared with the SDK); whether the table's run decided from the key
   * snapshot: it read one, left the next, and read none of the ledger's segments, except to compact
   * them beside its release (today's path reads the whole ledger to mark; a run on the snapshot's
   * path appends its new versions from the head commit alone, and folds the ledger only for the
   * append that compacts it, on the thread that leaves the snapshot).
   */
  protected boolean takesTheKeySnapshot(LanceTableFixture table, Policy policy, String when) {
    long keysBefore = generation(table.root(), "keys.");
    LedgerReads reads = new LedgerReads();
    cleanAndCompare(table, policy, when, MarkMode.INCREMENTAL, reads.factory());
    return generation(table.root(), "keys.") > keysBefore && reads.decidedFromTheKeySnapshot();
  }

  /** The highest generation of the ledger's files named {@code prefix}, 0 when there is none. */
  protected static long generation(Path root, String prefix) {
    if (!Files.isDirectory(root.resolve(Ledger.DIR))) {
      return 0;
    }
    return ledgerFiles(root, prefix).stream()
        .mapToLong(p -> Long.parseLong(p.getFileName().toString().substring(prefix.length()))).max().orElse(0);
  }

  /** The files directly in the ledger's directory whose names contain {@code part}, sorted. */
  protected static List<Path> ledgerFiles(Path root, String part) {
    try (Stream<Path> walk = Files.walk(root.resolve(Ledger.DIR), 1)) {
      return walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().contains(part)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes the key snapshots the local engine leaves beside the ledger (none on other engines). */
  protected static void deleteKeySnapshots(Path root) {
    try (Stream<Path> files = Files.list(root.resolve(Ledger.DIR))) {
      for (Path file : files.filter(p -> p.getFileName().toString().startsWith("keys.")).toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> manifestsRead(CountingTableStorage.Log log) {
    return log.read().stream().filter(p -> p.endsWith(".manifest")).distinct().toList();
  }

  /** The path of a version's manifest (V2 naming). */
  protected static String manifestName(long version) {
    return "_versions/" + Long.toUnsignedString(-1L - version) + ".manifest";
  }

  private static List<String> manifestsOf(Path root) {
    try (Stream<Path> walk = Files.list(root.resolve("_versions"))) {
      return walk.map(p -> "_versions/" + p.getFileName()).filter(p -> p.endsWith(".manifest")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  protected void cleanAndCompare(LanceTableFixture table, Policy policy, String when) {
    cleanAndCompare(table, policy, when, MarkMode.VERIFY);
  }

  /** Cleans the table (and branch b1 once it exists) in {@code mode}, and compares with the SDK's cleanup of a twin. */
  protected void cleanAndCompare(LanceTableFixture table, Policy policy, String when, MarkMode mode) {
    cleanAndCompare(table, policy, when, mode, HadoopTableStorage.factory(StorageConf.defaults()));
  }

  /** As {@link #cleanAndCompare(LanceTableFixture, Policy, String, MarkMode)}, the table's runs through {@code storage}. */
  protected void cleanAndCompare(LanceTableFixture table, Policy policy, String when, MarkMode mode, TableStorageFactory storage) {
    Path root = table.root();
    long latest = table.latestVersion();
    // Once the branch exists, it is cleaned too (its own ledger, under _maintenance/ledger/tree/b1).
    Optional<Long> branchLatest = root.resolve("tree/b1").toFile().isDirectory()
        ? Optional.of(table.branch("b1").latestVersion()) : Optional.empty();
    Path pristine = work.resolve("pristine-" + ++runs);
    TableTwins.copy(root, pristine);
    CleanupResult ours = run(root, Optional.empty(), mode, storage, policy, latest);
    branchLatest.ifPresent(v -> run(root, Optional.of("b1"), mode, storage, policy, v));
    List<String> oursLeft = lanceFiles(root);
    TableTwins.swap(root, pristine);
    OracleOutcome sdk = LanceOracle.cleanup(root, policy.sdk(latest));
    branchLatest.ifPresent(v -> assertThat(LanceOracle.cleanupBranch(root, "b1", policy.sdk(v)))
        .as("%s: the SDK cleaned b1", when).isInstanceOf(OracleOutcome.Removed.class));
    List<String> sdkLeft = lanceFiles(root);
    TableTwins.swap(root, pristine);
    TableTwins.deleteRecursively(pristine);
    assertThat(sdk).as("%s: the SDK cleaned", when).isInstanceOf(OracleOutcome.Removed.class);
    assertThat(oursLeft).as("%s: files left by ours (%s) and by the SDK", when, ours.counters()).isEqualTo(sdkLeft);
    KeptManifests.assertEveryManifestReadsBack(root);
  }

  protected CleanupResult run(Path root, MarkMode mode, TableStorageFactory storage, Policy policy, long latest) {
    return action(root, storage, mode, policy, latest).execute();
  }

  private CleanupResult run(Path root, Optional<String> branch, MarkMode mode, TableStorageFactory storage, Policy policy, long latest) {
    CleanupAction action = action(root, storage, mode, policy, latest);
    branch.ifPresent(action::branch);
    return action.execute();
  }

  private CleanupAction action(Path root, TableStorageFactory storage, MarkMode mode, Policy policy, long latest) {
    CleanupAction action = newCleanup(root.toString(), storage).markMode(mode);
    action.beforeVersion(latest - policy.keep() + 1).beforeTimestamp(policy.cutoff()).errorIfTaggedOldVersions(false);
    return action;
  }

  protected static List<String> lanceFiles(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.startsWith("_maintenance/")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
