package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code remove_orphan_files} on every engine, with orphans a real writer left: fragments the SDK
 * wrote ({@code Fragment.create}) and never committed, beside an SDK table with a tag, a deletion
 * file and a branch, every committed file made 30 days old so that only the references keep them.
 *
 * <p>The oracle is Lance's own rule for unreferenced files: the SDK's cleanup with {@code
 * delete_unverified} and a policy that expires no version removes the unreferenced files modified
 * before the oldest version's timestamp; ours with that instant as its cutoff must leave exactly
 * the same files. Every case starts from the table as built, at its own path (branches name their
 * parent by path); engines subclass this with their own action.
 */
public abstract class RemoveOrphanFilesContract {
  @TempDir static Path workDir;

  private static PristineTable pristine;
  private static TableSnapshot contentAsBuilt;
  /** Uncommitted writes on main modified 10 days ago: past the default window of 7 days. */
  private static List<String> oldOrphans;
  /** An uncommitted write on main modified 3 days ago: inside the default window. */
  private static List<String> recentOrphan;
  /** An uncommitted write on branch {@code b}, 10 days old: under the branch's directories, not main's. */
  private static List<String> branchOrphan;
  private static Instant oldestVersion;

  /** A cleanup action of the engine under test, with nothing set yet. */
  protected abstract CleanupAction newCleanup(String tableUri);

  @BeforeAll
  static void writeTable() {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("table"));
    long first = table.append(10);
    long second = table.append(10);
    table.deleteWhere("id % 3 = 0");
    table.tag("first", first);
    LanceTableFixture branch = table.createBranch("b", second);
    branch.append(10);
    table.append(10);
    table.shiftAllModificationTimes(Duration.ofDays(-30));
    oldestVersion = table.manifestTimestamp(first);

    Instant now = Instant.now();
    oldOrphans = new ArrayList<>(table.writeUncommitted(5));
    oldOrphans.addAll(table.writeUncommitted(5));
    recentOrphan = table.writeUncommitted(5);
    branchOrphan = branch.writeUncommitted(5);
    List<String> freshOrphan = table.writeUncommitted(5);
    age(table, oldOrphans, now.minus(Duration.ofDays(10)));
    age(table, branchOrphan, now.minus(Duration.ofDays(10)));
    age(table, recentOrphan, now.minus(Duration.ofDays(3)));
    assertThat(oldOrphans).as("two uncommitted data files").hasSize(2).allMatch(path -> path.startsWith("data/"));
    assertThat(branchOrphan).singleElement().matches(path -> path.startsWith("tree/b/data/"));
    assertThat(freshOrphan).singleElement();

    contentAsBuilt = ReadBack.snapshot(table.root());
    pristine = PristineTable.keep(table.root(), workDir.resolve("as-built"));
  }

  @BeforeEach
  void restoreTable() {
    pristine.restore();
  }

  @Test
  void orphansOlderThanTheWindowGoAndEveryReferencedFileStays() {
    CleanupResult result = newCleanup(uri()).orphanFilesOnly().execute();

    assertThat(pristine.currentFiles()).as("files after the sweep: all but the orphans older than 7 days")
        .isEqualTo(without(pristine.files(), oldOrphans));
    assertThat(result.counters().dataFilesRemoved()).as("data_files_removed").isEqualTo(oldOrphans.size());
    assertThat(result.counters().oldVersions()).as("old_versions: an orphan sweep expires none").isZero();
    assertThat(result.counters().manifestFilesRemoved()).as("manifests removed").isZero();
    assertEveryVersionReadsAsBuilt();
  }

  @Test
  void leavesWhatTheSdkCleanupWithDeleteUnverifiedAndTheSameCutoffLeaves() {
    newCleanup(uri()).orphanFilesOnly().beforeTimestamp(oldestVersion).allowShortRetention(true).execute();
    TreeSet<String> ours = pristine.currentFiles();
    assertEveryVersionReadsAsBuilt();

    pristine.restore();
    LanceOracle.cleanup(pristine.table(),
            OraclePolicy.builder().beforeVersion(1).deleteUnverified(true).build())
        .stats();
    TreeSet<String> sdk = pristine.currentFiles();

    assertThat(ours).as("files left by ours and by the SDK 7.0.0").isEqualTo(sdk);
    assertThat(ours).as("the 3-day-old orphan is older than the oldest version: both remove it")
        .isEqualTo(without(pristine.files(), oldOrphans, recentOrphan));
  }

  @Test
  void aDryRunListsTheOrphansAndDeletesNothing() {
    List<String> listed = new ArrayList<>();
    CleanupResult dry = newCleanup(uri()).orphanFilesOnly().dryRun(true)
        .onRemovedFile(file -> listed.add(file.path())).execute();

    assertThat(listed).as("files the dry run lists").containsExactlyInAnyOrderElementsOf(oldOrphans);
    assertThat(dry.counters().dataFilesRemoved()).as("data files it would remove").isEqualTo(oldOrphans.size());
    assertThat(pristine.currentFiles()).as("files after the dry run").isEqualTo(pristine.files());
  }

  @Test
  void maxDeletesLeavesTheRestForTheNextRun() {
    CleanupResult capped = newCleanup(uri()).orphanFilesOnly().maxDeletes(1).execute();

    assertThat(capped.counters().dataFilesRemoved()).as("removed by the capped run").isEqualTo(1);
    assertThat(capped.counters().deferredDeletes()).as("deferred_deletes").isEqualTo(oldOrphans.size() - 1);
    newCleanup(uri()).orphanFilesOnly().execute();
    assertThat(pristine.currentFiles()).as("after the next run").isEqualTo(without(pristine.files(), oldOrphans));
  }

  @Test
  void aBranchSweepRemovesTheBranchsOrphansOnly() {
    CleanupResult result = newCleanup(uri()).orphanFilesOnly().branch("b").execute();

    assertThat(pristine.currentFiles()).as("files after sweeping branch b")
        .isEqualTo(without(pristine.files(), branchOrphan));
    assertThat(result.counters().dataFilesRemoved()).isEqualTo(1);
    assertEveryVersionReadsAsBuilt();
  }

  @Test
  void aWindowUnderADayIsRefusedUnlessAllowed() {
    assertThatThrownBy(() -> newCleanup(uri()).orphanFilesOnly().olderThan(Duration.ofHours(12)).execute())
        .isInstanceOf(MaintenanceException.class)
        .hasMessageContaining("retention guard")
        .hasMessageContaining(pristine.table().getFileName().toString());
    assertThat(pristine.currentFiles()).as("files after the refused run").isEqualTo(pristine.files());
  }

  @Test
  void anOptionThatChoosesVersionsIsRefusedWithNothingDeleted() {
    for (String name : List.of("before_version", "delete_unverified", "retain_last", "dryrun")) {
      assertThatThrownBy(() -> newCleanup(uri()).orphanFilesOnly().options(Map.of(name, "1")).execute())
          .as(name)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Unknown remove_orphan_files argument '" + name + "'");
    }
    assertThatThrownBy(() -> newCleanup(uri()).orphanFilesOnly().beforeVersion(2).execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("remove_orphan_files expires no version")
        .hasMessageContaining(pristine.table().getFileName().toString());
    assertThat(pristine.currentFiles()).as("files after the refused runs").isEqualTo(pristine.files());
  }

  // ---------------------------------------------------------------- helpers

  private static String uri() {
    return pristine.table().toString();
  }

  /** Every version of main and the branch and the tag read as they did before any sweep. */
  private static void assertEveryVersionReadsAsBuilt() {
    assertThat(ReadBack.snapshot(pristine.table())).as("every version, tag and branch version").isEqualTo(contentAsBuilt);
    KeptManifests.assertEveryManifestReadsBack(pristine.table());
  }

  @SafeVarargs
  private static TreeSet<String> without(TreeSet<String> files, List<String>... removed) {
    TreeSet<String> left = new TreeSet<>(files);
    for (List<String> paths : removed) {
      paths.forEach(left::remove);
    }
    return left;
  }

  private static void age(LanceTableFixture table, List<String> files, Instant mtime) {
    files.forEach(path -> table.setModificationTime(path, mtime));
  }
}
