package dev.lancemaintenance.cleanup.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import static dev.lancemaintenance.cleanup.CleanupSettings.NO_CAP;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.CleanupProgress;
import dev.lancemaintenance.cleanup.ProgressSnapshot;
import dev.lancemaintenance.cleanup.MissingFilesException;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The order every engine inherits from {@link CleanupRun}: what an engine's distribution reports
 * decides which stages run next. The engines' own suites prove the stages on real tables; this
 * proves the order and the gates for any distribution, including one no engine has yet.
 */
class CleanupRunTest {
  private static final String TABLE = "file:/tmp/some-table";
  private static final CleanupPolicy POLICY =
      CleanupPolicy.builder().beforeTimestamp(Instant.parse("2026-01-01T00:00:00Z")).build();
  private static final CleanupPlan PLAN =
      new CleanupPlan(new RetentionFacts(TABLE, DatasetRef.MAIN, POLICY, 12, Map.of(), Set.of(), 1_000L), List.of(), List.of());

  @Test
  void runsTheStagesInTheirOrderAndReleasesManifestsAfterACleanSweep() {
    Recording engine = new Recording();

    CleanupCounters counters = new CleanupRun(TABLE, PLAN, engine).execute();

    assertThat(engine.calls).containsExactly("mark", "list", "decide", "sweep within " + NO_CAP, "release within " + NO_CAP);
    assertThat(counters.failedDeletes()).isZero();
  }

  @Test
  void maxDeletesLeavesTheManifestsWhatTheSweepDidNotUse() {
    Recording engine = new Recording();
    engine.sweepCounters = CleanupCounters.ZERO.record(dataFile()).record(dataFile());

    new CleanupRun(TABLE, PLAN, engine, 5, new CleanupProgress()).execute();

    assertThat(engine.calls).containsExactly("mark", "list", "decide", "sweep within 5", "release within 3");
  }

  @Test
  void keepsTheExpiredManifestsWhenMaxDeletesDeferredAFile() {
    Recording engine = new Recording();
    engine.sweepCounters = CleanupCounters.ZERO.record(dataFile()).deferred(1);

    CleanupCounters counters = new CleanupRun(TABLE, PLAN, engine, 1, new CleanupProgress()).execute();

    assertThat(engine.calls).containsExactly("mark", "list", "decide", "sweep within 1");
    assertThat(counters.deferredDeletes()).isEqualTo(1);
  }

  @Test
  void keepsTheExpiredManifestsWhenADeleteOfTheSweepFailed() {
    Recording engine = new Recording();
    engine.sweepCounters = CleanupCounters.ZERO.failed(1);

    CleanupCounters counters = new CleanupRun(TABLE, PLAN, engine).execute();

    assertThat(engine.calls).containsExactly("mark", "list", "decide", "sweep within " + NO_CAP);
    assertThat(counters.failedDeletes()).isEqualTo(1);
  }

  @Test
  void retiresTheExpiryRecordsTheMarkUsedOnlyAfterACompleteSweepAndRelease() {
    Set<String> records = Set.of("_maintenance/ledger/expired-1.rec");
    Recording complete = new Recording();
    complete.summary = MarkSummary.ofExpiryRecords(records);
    Recording failed = new Recording();
    failed.summary = complete.summary;
    failed.sweepCounters = CleanupCounters.ZERO.failed(1);
    Recording capped = new Recording();
    capped.summary = complete.summary;
    capped.releaseCounters = CleanupCounters.ZERO.deferred(1);
    Recording fromInventory = new Recording();
    fromInventory.summary = complete.summary;
    CleanupPlan inventoryPlan = new CleanupPlan(new RetentionFacts(TABLE, DatasetRef.MAIN, POLICY, 12, Map.of(), Set.of(), 1_000L,
        new dev.lancemaintenance.cleanup.rules.InventorySnapshot("inventory", 1_000L)), List.of(), List.of());

    new CleanupRun(TABLE, PLAN, complete).execute();
    new CleanupRun(TABLE, PLAN, failed).execute();
    new CleanupRun(TABLE, PLAN, capped, 10, new CleanupProgress()).execute();
    new CleanupRun(TABLE, inventoryPlan, fromInventory).execute();

    assertThat(complete.calls).containsExactly(
        "mark", "list", "decide", "sweep within " + NO_CAP, "release within " + NO_CAP, "retire " + records);
    assertThat(failed.calls).as("a failed delete").doesNotContain("retire " + records);
    assertThat(capped.calls).as("manifests deferred by max_deletes").doesNotContain("retire " + records);
    assertThat(fromInventory.calls).as("listed from an inventory").doesNotContain("retire " + records);
  }

  @Test
  void progressEndsWithTheCountsAnEngineReducedAtEachStage() {
    Recording engine = new Recording();
    engine.summary = new MarkSummary(7, 2, Long.MAX_VALUE, Map.of());
    engine.listed = 40;
    engine.sweepCounters = new CleanupCounters(0, 900, 5, 1, 0, 2, 0, 0, 0, 0);
    engine.releaseCounters = new CleanupCounters(2, 100, 0, 0, 0, 0, 2, 0, 0, 0);
    CleanupProgress progress = new CleanupProgress();

    new CleanupRun(TABLE, PLAN, engine, NO_CAP, progress).execute();

    ProgressSnapshot last = progress.snapshot();
    assertThat(last.stage()).isEqualTo(CleanupStage.RELEASE.label());
    assertThat(last.manifestsRead()).isEqualTo(7);
    assertThat(last.filesListed()).isEqualTo(40);
    assertThat(last.filesRemoved()).isEqualTo(10);
    assertThat(last.candidates()).isEqualTo(10);
    assertThat(last.bytesFreed()).isEqualTo(1_000);
  }

  @Test
  void aTaggedOldVersionStopsTheRunBeforeTheListing() {
    Recording engine = new Recording();
    engine.summary = new MarkSummary(1, 1, Long.MAX_VALUE, Map.of("release-1", 3L));

    assertThatThrownBy(() -> new CleanupRun(TABLE, PLAN, engine).execute())
        .isInstanceOf(TaggedVersionsException.class)
        .hasMessageContaining(TABLE);
    assertThat(engine.calls).containsExactly("mark");
  }

  @Test
  void aRetainedVersionNamingAnUnlistedFileStopsTheRunBeforeAnyDelete() {
    Recording engine = new Recording();
    engine.unlisted = UnlistedReferences.of("data/gone.lance");

    assertThatThrownBy(() -> new CleanupRun(TABLE, PLAN, engine).execute())
        .isInstanceOf(MissingFilesException.class)
        .hasMessageContaining("data/gone.lance");
    assertThat(engine.calls).containsExactly("mark", "list", "decide");
  }

  @Test
  void stagesAreNumberedOnceForEveryEngine() {
    assertThat(CleanupStage.MARK.label()).isEqualTo("2/6 mark");
    assertThat(CleanupStage.RELEASE.label()).isEqualTo("6/6 release manifests");
    assertThat(CleanupStage.LIST.through(CleanupStage.DECIDE)).isEqualTo("3-4/6 list, decide");
    assertThatThrownBy(() -> CleanupStage.DECIDE.through(CleanupStage.LIST)).isInstanceOf(IllegalArgumentException.class);
  }

  private static CandidateFile dataFile() {
    return new CandidateFile("data/a.lance", FileKind.DATA, 10, RemovalReason.EXPIRED_VERSION);
  }

  /** A distribution that records which stages ran and reports what the test sets. */
  private static final class Recording implements CleanupRun.Distribution {
    @Override
    public int decideTasks() {
      return 1;
    }

    final List<String> calls = new ArrayList<>();
    MarkSummary summary = new MarkSummary(1, 1, Long.MAX_VALUE, Map.of());
    UnlistedReferences unlisted = UnlistedReferences.NONE;
    CleanupCounters sweepCounters = CleanupCounters.ZERO;
    CleanupCounters releaseCounters = CleanupCounters.ZERO;
    long listed;

    @Override
    public MarkSummary mark(CleanupPlan plan) {
      calls.add("mark");
      return summary;
    }

    @Override
    public OptionalLong list(CleanupPlan plan) {
      calls.add("list");
      return OptionalLong.of(listed);
    }

    @Override
    public UnlistedReferences decide(CleanupPlan plan, DecisionContext context) {
      calls.add("decide");
      return unlisted;
    }

    @Override
    public CleanupCounters sweepDecided(long budget) {
      calls.add("sweep within " + budget);
      return sweepCounters;
    }

    @Override
    public CleanupCounters sweepExpiredManifests(long budget) {
      calls.add("release within " + budget);
      return releaseCounters;
    }

    @Override
    public void retireExpiryRecords(CleanupPlan plan, Set<String> records) {
      calls.add("retire " + records);
    }
  }
}
