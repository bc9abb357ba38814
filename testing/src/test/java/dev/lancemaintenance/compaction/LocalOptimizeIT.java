package dev.lancemaintenance.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalCompactionEngine;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/**
 * Optimize on the local engines: compaction then cleanup, the tag-trap pre-flight that refuses
 * before any work, its opt-out, and the dry run.
 */
class LocalOptimizeIT {
  private static final CompactionPolicy SEVERAL_TASKS = SmallFragmentsTable.SEVERAL_TASKS;

  @TempDir static Path templateDir;
  private static LanceTableFixture template;

  @TempDir Path dir;

  @BeforeAll
  static void writeTemplate() {
    template = SmallFragmentsTable.write(templateDir.resolve("template"));
  }

  private LanceTableFixture copy() {
    TableTwins.copy(template.root(), dir.resolve("t"));
    return LanceTableFixture.open(dir.resolve("t"));
  }

  private static OptimizeAction optimizeOf(LanceTableFixture table) {
    TableLocation location = TableLocation.of(table.uri());
    TableStorageFactory storage = HadoopTableStorage.factory(StorageConf.defaults());
    CompactAction compact = new EngineCompactAction(CompactionTable.of(location, Map.of()), new LocalCompactionEngine()).policy(SEVERAL_TASKS);
    // Few partitions: the test tables have a few hundred files, and each partition is a spill file.
    LocalCleanupAction cleanup = new LocalCleanupAction(location, storage, Clock.systemUTC()).parallelism(4).partitions(4);
    return new OptimizeAction(location, storage, compact, cleanup, Clock.systemUTC());
  }

  @Test
  void compactsThenRemovesEveryVersionBeforeTheCompaction() {
    LanceTableFixture table = copy();
    long latestBefore = table.latestVersion();
    TableContent before = SmallFragmentsTable.latestContent(table);

    OptimizeResult result = optimizeOf(table).olderThan(Duration.ZERO).execute();

    // The window of 0 s starts after compacting: the compaction's earlier commits go too.
    assertThat(table.versions()).as("versions left").containsExactly(table.latestVersion());
    assertThat(table.latestVersion()).as("latest version").isGreaterThan(latestBefore);
    assertThat(result.cleanup().counters().oldVersions()).as("old_versions").isEqualTo(table.latestVersion() - 1);
    assertThat(SmallFragmentsTable.latestContent(table)).as("content at the latest version").isEqualTo(before);
    assertThat(ReadBack.snapshot(table.root()).unreadable()).as("versions that do not read").isEmpty();
  }

  /**
   * With a commit per task, the compaction's own earlier commits still name merged fragments; they
   * are older than a window of 0 s only when the cutoff is taken after compacting, as LanceDB does.
   */
  @Test
  void aWindowOfZeroAfterSeveralCommitsLeavesOnlyTheLatestVersionsDataFiles() {
    LanceTableFixture table = copy();
    TableLocation location = TableLocation.of(table.uri());
    TableStorageFactory storage = HadoopTableStorage.factory(StorageConf.defaults());
    CompactionPolicy commitPerTask =
        CompactionPolicy.builder().targetRowsPerFragment(40).maxConcurrentTasks(3).partialProgress(1).build();
    OptimizeAction optimize =
        new OptimizeAction(
            location,
            storage,
            new EngineCompactAction(CompactionTable.of(location, Map.of()), new LocalCompactionEngine()).policy(commitPerTask),
            new LocalCleanupAction(location, storage, Clock.systemUTC()).parallelism(4).partitions(4),
            Clock.systemUTC());

    OptimizeResult result = optimize.olderThan(Duration.ZERO).execute();

    assertThat(result.compaction().orElseThrow().commits()).as("commits").isGreaterThan(1);
    assertThat(table.versions()).as("versions left").containsExactly(table.latestVersion());
    assertThat(dataFiles(table.listFiles()))
        .as("data files on disk")
        .isEqualTo(dataFiles(SmallFragmentsTable.referencedByLatest(table)));
  }

  private static TreeSet<String> dataFiles(java.util.Collection<String> paths) {
    TreeSet<String> data = new TreeSet<>();
    paths.stream().filter(p -> p.startsWith("data/")).forEach(data::add);
    return data;
  }

  @Test
  void reportsBytesWrittenReclaimedAndTheNetChange() {
    LanceTableFixture table = copy();

    OptimizeResult result = optimizeOf(table).olderThan(Duration.ZERO).execute();

    assertThat(result.bytesWritten()).as("bytes_written").isPositive();
    assertThat(result.bytesReclaimed()).as("bytes_reclaimed").isGreaterThan(result.bytesWritten());
    assertThat(result.namedCounters())
        .as("named counters")
        .containsEntry("bytes_written", result.bytesWritten())
        .containsEntry("bytes_reclaimed", result.bytesReclaimed())
        .containsEntry("net_bytes", result.bytesWritten() - result.bytesReclaimed())
        .containsEntry("old_versions", result.cleanup().counters().oldVersions())
        .containsEntry("fragments_removed", result.compaction().orElseThrow().counters().fragmentsRemoved());
  }

  @Test
  void refusesBeforeCompactingWhenTheCleanupWouldFindTaggedOldVersions() {
    LanceTableFixture table = copy();
    long latest = table.latestVersion();
    table.tag("current", latest);
    table.tag("early", 3);
    List<String> filesBefore = table.listFiles();

    assertThatThrownBy(() -> optimizeOf(table).olderThan(Duration.ZERO).execute())
        .isInstanceOfSatisfying(TagTrapException.class, e ->
            assertThat(e.tags()).as("tags").containsExactlyEntriesOf(
                new TreeMap<>(Map.of("current", latest, "early", 3L))))
        .hasMessageContaining("Cannot optimize " + TableLocation.of(table.uri()))
        .hasMessageContaining("current -> v" + latest + " (the latest version now; compaction makes it old)")
        .hasMessageContaining("early -> v3")
        .hasMessageContaining("Move the tag(s)")
        .hasMessageContaining("lance-maintenance tag move|delete")
        .hasMessageContaining("widen the window")
        .hasMessageContaining("error_if_tagged_old_versions=false");
    assertThat(table.listFiles()).as("files after the refusal").isEqualTo(filesBefore);
  }

  /** Options by SQL name go to their half through the catalogues; a mistake fails before anything runs. */
  @Test
  void optionsByNameReachBothHalvesAndAMistakeFailsBeforeAnythingRuns() {
    LanceTableFixture table = copy();
    List<String> filesBefore = table.listFiles();

    assertThatThrownBy(() -> optimizeOf(table).options(Map.of("older_than", "0s", "dryrun", "false")))
        .hasMessageContaining("Unknown optimize argument 'dryrun'").hasMessageContaining("dry_run");
    OptimizeAction optimize = optimizeOf(table).options(Map.of("older_than", "0s", "dry_run", "true", "partial_progress", "1"));
    OptimizeResult result = optimize.execute();

    assertThat(optimize.compaction().policy().partialProgress()).as("partial_progress on the compaction").isEqualTo(1);
    assertThat(result.mode()).as("dry_run on the cleanup").isEqualTo(CleanupMode.DRY_RUN);
    assertThat(result.cleanup().counters().oldVersions()).as("older_than 0s: every version but the latest would go")
        .isEqualTo(table.versions().size() - 1L);
    assertThat(table.listFiles()).as("files after the dry run").isEqualTo(filesBefore);
  }

  @Test
  void refusesForATagOnTheLatestVersionThatAPlainCleanupAccepts() {
    LanceTableFixture table = copy();
    long latest = table.latestVersion();
    table.tag("current", latest);
    List<String> filesBefore = table.listFiles();
    TableLocation location = TableLocation.of(table.uri());
    new LocalCleanupAction(location, HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .olderThan(Duration.ZERO).dryRun(true).execute();

    assertThatThrownBy(() -> optimizeOf(table).olderThan(Duration.ZERO).execute())
        .isInstanceOf(TagTrapException.class)
        .hasMessageContaining("current -> v" + latest);
    assertThat(table.listFiles()).as("files after the refusal").isEqualTo(filesBefore);
  }

  @Test
  void withTheOptOutCompactsAndKeepsTheTaggedVersions() {
    LanceTableFixture table = copy();
    long latest = table.latestVersion();
    table.tag("current", latest);
    table.tag("early", 3);
    TableContent current = ReadBack.read(table.root(), Ref.ofTag("current"));
    TableContent early = ReadBack.read(table.root(), Ref.ofTag("early"));

    OptimizeResult result =
        optimizeOf(table).olderThan(Duration.ZERO).errorIfTaggedOldVersions(false).execute();

    assertThat(result.compaction().orElseThrow().commits()).as("commits").isEqualTo(1);
    assertThat(table.versions()).as("versions left").contains(3L, latest);
    assertThat(ReadBack.read(table.root(), Ref.ofTag("current"))).as("tag current").isEqualTo(current);
    assertThat(ReadBack.read(table.root(), Ref.ofTag("early"))).as("tag early").isEqualTo(early);
  }

  @Test
  void aTagOnTheLatestVersionIsNoTrapWhileTheVersionIsInsideTheWindow() {
    LanceTableFixture table = copy();
    long latest = table.latestVersion();
    table.tag("current", latest);

    OptimizeResult result = optimizeOf(table).olderThan(Duration.ofDays(1)).execute();

    assertThat(result.compaction().orElseThrow().commits()).as("commits").isEqualTo(1);
    assertThat(result.cleanup().counters().oldVersions()).as("old_versions inside a day").isZero();
  }

  @Test
  void dryRunReportsThePlanAndTheCleanupWithoutWriting() {
    LanceTableFixture table = copy();
    long latest = table.latestVersion();
    List<String> filesBefore = table.listFiles();

    OptimizeResult result = optimizeOf(table).olderThan(Duration.ZERO).dryRun(true).execute();

    assertThat(result.mode()).isEqualTo(CleanupMode.DRY_RUN);
    assertThat(result.plannedTasks()).as("planned tasks").isGreaterThanOrEqualTo(3);
    assertThat(result.plannedFragments()).as("planned fragments").isGreaterThan(result.plannedTasks());
    assertThat(result.compaction()).as("compaction").isEmpty();
    assertThat(result.cleanup().counters().oldVersions()).as("old_versions today").isEqualTo(latest - 1);
    assertThat(table.listFiles()).as("files after a dry run").isEqualTo(filesBefore);
  }
}
