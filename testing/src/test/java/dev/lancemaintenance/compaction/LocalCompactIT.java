package dev.lancemaintenance.compaction;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LeaseHeldException;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Duration;
import java.time.Instant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.local.LocalCompactionEngine;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction on the local engine, on a table of many small fragments written by the SDK: the same
 * plan as Lance's own single-process compaction, the same content after it, retries, and partial
 * progress that leaves a readable table when the last task fails for good.
 */
class LocalCompactIT {
  private static final CompactionPolicy SEVERAL_TASKS = SmallFragmentsTable.SEVERAL_TASKS;

  @TempDir static Path templateDir;
  private static LanceTableFixture template;

  @TempDir Path dir;

  @BeforeAll
  static void writeTemplate() {
    template = SmallFragmentsTable.write(templateDir.resolve("template"));
  }

  private LanceTableFixture copy(String name) {
    TableTwins.copy(template.root(), dir.resolve(name));
    return LanceTableFixture.open(dir.resolve(name));
  }

  private static CompactAction compactOf(LanceTableFixture table) {
    return new EngineCompactAction(SmallFragmentsTable.compactionTable(table), new LocalCompactionEngine()).policy(SEVERAL_TASKS);
  }

  @Test
  void latestVersionReadsTheSameRowsAfterCompacting() {
    LanceTableFixture table = copy("t");
    TableContent before = SmallFragmentsTable.latestContent(table);
    int fragmentsBefore = SmallFragmentsTable.fragmentIds(table).size();

    CompactResult result = compactOf(table).execute();

    assertThat(result.newVersion()).as("new version").isEqualTo(table.latestVersion()).isGreaterThan(result.readVersion());
    assertThat(SmallFragmentsTable.latestContent(table)).as("rows and checksum at the latest version").isEqualTo(before);
    assertThat(SmallFragmentsTable.fragmentIds(table)).as("fragments").hasSizeLessThan(fragmentsBefore / 4);
  }

  @Test
  void countersAddUpToTheFragmentsReplaced() {
    LanceTableFixture table = copy("t");
    Set<Integer> before = SmallFragmentsTable.fragmentIds(table);

    CompactResult result = compactOf(table).execute();

    Set<Integer> after = SmallFragmentsTable.fragmentIds(table);
    Set<Integer> removed = new TreeSet<>(before);
    removed.removeAll(after);
    Set<Integer> added = new TreeSet<>(after);
    added.removeAll(before);
    assertThat(result.counters().fragmentsRemoved()).as("fragments_removed").isEqualTo(removed.size());
    assertThat(result.counters().fragmentsAdded()).as("fragments_added").isEqualTo(added.size());
    assertThat(result.counters().filesAdded()).as("files_added").isEqualTo(added.size());
    assertThat(result.counters().bytesWritten()).as("bytes_written").isPositive();
    assertThat(result.commits()).as("one commit without partial progress").isEqualTo(1);
  }

  @Test
  void plansWhatLanceOwnCompactionMerges() {
    LanceTableFixture ours = copy("ours");
    LanceTableFixture lance = copy("lance");
    Set<Integer> before = SmallFragmentsTable.fragmentIds(lance);

    CompactAction compact = compactOf(ours);
    CompactionPlan plan = compact.plan();
    compact.execute(plan);
    SmallFragmentsTable.sdkCompact(lance, SEVERAL_TASKS);

    Set<Integer> replacedByLance = new TreeSet<>(before);
    replacedByLance.removeAll(SmallFragmentsTable.fragmentIds(lance));
    Set<Integer> planned = new TreeSet<>();
    plan.tasks().forEach(task -> planned.addAll(task.fragmentIds()));
    assertThat(plan.tasks()).as("tasks").hasSizeGreaterThanOrEqualTo(3);
    assertThat(planned).as("fragments our plan merges").isEqualTo(replacedByLance);
    assertThat(SmallFragmentsTable.fragmentLayout(ours))
        .as("fragment layout after compacting, ours against Dataset.compact")
        .isEqualTo(SmallFragmentsTable.fragmentLayout(lance));
  }

  @Test
  void aCompactionWhileAnotherRunHoldsTheTableLeaseFailsNamingItAndCommitsNothing() throws Exception {
    LanceTableFixture table = copy("t");
    long before = table.latestVersion();
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.root().toString()), StorageConf.defaults());
        TableLease held = Leases.holdElsewhere(storage, Instant.now(), Duration.ofDays(1))) {

      assertThatThrownBy(() -> compactOf(table).execute())
          .isInstanceOf(LeaseHeldException.class)
          .hasMessageContaining("Cannot compact")
          .hasMessageContaining("run elsewhere on host other-host (pid 4242)");
    }
    assertThat(table.latestVersion()).as("latest version").isEqualTo(before);
    assertThat(compactOf(table).execute().newVersion()).as("once the lease is free").isGreaterThan(before);
  }

  @Test
  void emptyPlanCommitsNothing() {
    LanceTableFixture table = copy("t");
    compactOf(table).execute();
    long compacted = table.latestVersion();

    CompactResult again = compactOf(table).execute();

    assertThat(again.tasks()).as("tasks of a second compaction").isZero();
    assertThat(table.latestVersion()).as("latest version").isEqualTo(compacted);
  }

  @Test
  void retriesATaskThatFailedOnce() {
    LanceTableFixture table = copy("t");
    TableContent before = SmallFragmentsTable.latestContent(table);
    FaultyWorker worker =
        new FaultyWorker(SmallFragmentsTable.compactionTable(table), 1, 1, FaultyWorker.FailurePoint.AFTER_WRITING);

    CompactResult result = new EngineCompactAction(SmallFragmentsTable.compactionTable(table), worker, new LocalCompactionEngine())
        .policy(SEVERAL_TASKS).execute();

    assertThat(worker.attemptsOfFailingTask()).as("attempts of the failing task").isEqualTo(2);
    assertThat(worker.calls()).as("task runs").isEqualTo(result.tasks() + 1);
    assertThat(SmallFragmentsTable.latestContent(table)).as("content after the retried run").isEqualTo(before);
  }

  @Test
  void failsNamingTheTaskWhenItFailsTwice() {
    LanceTableFixture table = copy("t");
    long versionBefore = table.latestVersion();
    FaultyWorker worker =
        new FaultyWorker(SmallFragmentsTable.compactionTable(table), 0, 2, FaultyWorker.FailurePoint.BEFORE_WRITING);

    assertThatThrownBy(() -> new EngineCompactAction(SmallFragmentsTable.compactionTable(table), worker, new LocalCompactionEngine())
            .policy(SEVERAL_TASKS).execute())
        .isInstanceOf(CompactionFailedException.class)
        .hasMessageContaining("Cannot compact " + table.uri())
        .hasMessageContaining("task 0 (fragments [")
        .hasMessageContaining("failed 2 times")
        .hasMessageContaining("Committed 0 of 1 commit group(s)");
    assertThat(table.latestVersion()).as("nothing committed without partial progress").isEqualTo(versionBefore);
  }

  @Test
  void partialProgressKeepsEarlierGroupsWhenTheLastTaskFails() {
    LanceTableFixture table = copy("t");
    TableContent before = SmallFragmentsTable.latestContent(table);
    CompactionPolicy groupsOfOne = SEVERAL_TASKS.toBuilder().partialProgress(1).maxConcurrentTasks(1).build();
    CompactionTable compactionTable = SmallFragmentsTable.compactionTable(table);
    int tasks = new CompactionPlanner().plan(compactionTable, groupsOfOne).tasks().size();
    FaultyWorker worker = new FaultyWorker(compactionTable, tasks - 1, 2, FaultyWorker.FailurePoint.AFTER_WRITING);
    List<String> filesBefore = table.listFiles();

    assertThatThrownBy(() -> new EngineCompactAction(compactionTable, worker, new LocalCompactionEngine()).policy(groupsOfOne).execute())
        .isInstanceOfSatisfying(CompactionFailedException.class, e -> {
          assertThat(e.progress().groupsCommitted()).as("groups committed").isEqualTo(tasks - 1);
          assertThat(e.progress().groups()).as("groups").isEqualTo(tasks);
        });

    assertThat(SmallFragmentsTable.latestContent(table)).as("content at the latest version").isEqualTo(before);
    assertThat(ReadBack.snapshot(table.root()).unreadable()).as("versions that do not read").isEmpty();
    Set<String> referenced = SmallFragmentsTable.referencedByLatest(table);
    Set<String> abandoned = new TreeSet<>(table.listFiles());
    abandoned.removeAll(filesBefore);
    abandoned.removeIf(path -> !path.startsWith("data/"));
    abandoned.removeAll(referenced);
    assertThat(worker.abandonedFiles()).as("files the failed attempts wrote").isPositive();
    assertThat(abandoned).as("new data files the latest version does not reference").hasSize(worker.abandonedFiles());
    assertThat(table.listFiles())
        .as("data files the latest version references")
        .containsAll(referenced.stream().filter(path -> path.startsWith("data/")).toList());
  }
}
