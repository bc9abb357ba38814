package dev.lancemaintenance.cleanup.engine;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupProgress;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.CleanupSettings;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.inventory.S3Inventory;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fixed order of one dataset's cleanup, which every engine executes: {@linkplain
 * CleanupStage#PLAN plan}, {@linkplain CleanupStage#MARK mark}, the tagged-versions gate,
 * {@linkplain CleanupStage#LIST list}, {@linkplain CleanupStage#DECIDE decide}, the
 * referenced-files gate, {@linkplain CleanupStage#SWEEP sweep}, and {@linkplain
 * CleanupStage#RELEASE the release of the expired manifests} only when no other delete failed and
 * none was deferred by {@code max_deletes}.
 *
 * <p>The order is the safety argument: nothing is deleted before every manifest was read and no
 * tagged version would go (or the policy allows it), before every listed file was decided and no
 * retained version names a missing file; and the manifests of removed versions go last, so a run
 * that fails half way leaves every retained version readable and the next run sees what it left as
 * still verified. Engines supply only the {@link Distribution}: how each stage's inputs are
 * partitioned, shipped and collected. An engine whose stages are one dataflow (Flink) cannot call
 * back between stages; it places the same {@link Gate}s ({@link #taggedVersionsGate}, {@link
 * #referencedFilesGate}, {@link #releasesExpiredManifests}) where its reductions land.
 */
public final class CleanupRun {
  private static final Logger LOG = LoggerFactory.getLogger(CleanupRun.class);

  /** How one engine runs each stage; called by {@link CleanupRun} in its order, each once. */
  public interface Distribution {
    /** Marks every slice of the plan and returns the reduced summary. */
    MarkSummary mark(CleanupPlan plan);

    /**
     * Lists the managed directories of the plan; the files listed when the engine counts them here,
     * empty when it lists lazily inside the decision (one Spark job for both). A listing reads only
     * the managed directories and decides nothing, so an engine may start it with {@link #mark}
     * (the local engine does) and only wait for it here.
     */
    OptionalLong list(CleanupPlan plan);

    /**
     * Decides every listed file and returns the reduced references no listed file carries; each
     * decide task records the files it decided in its part of {@link SweepResume#decidedFiles()},
     * when the run records them.
     */
    UnlistedReferences decide(CleanupPlan plan, DecisionContext context);

    /** How many decide tasks {@link #decide} ran, each recording one part: what a resume expects. */
    int decideTasks();

    /**
     * Deletes (in a dry run, counts) at most {@code budget} of the decided files and returns the
     * reduced counters, the files over the budget counted as deferred ({@link
     * CleanupCounters#deferred}); {@link CleanupSettings#NO_CAP} for all of them.
     */
    CleanupCounters sweepDecided(long budget);

    /** As {@link #sweepDecided}, for the expired manifests. */
    CleanupCounters sweepExpiredManifests(long budget);

    /**
     * Deletes, on the driver, the expiry records the mark stage used ({@link
     * MarkSummary#expiryRecordsUsed}); called after the release when {@link #retiresExpiryRecords}
     * allows it. Nothing in a dry run. Engines call {@code ExpiryRecords.retireUsed}, the steps'
     * one home (in {@code ledger}, which depends on this package).
     */
    void retireExpiryRecords(CleanupPlan plan, Set<String> records);
  }

  private final String table;
  private final CleanupPlan plan;
  private final Distribution engine;
  private final long maxDeletes;
  private final CleanupProgress progress;
  private final SweepResume resume;
  private MarkSummary marked = MarkSummary.EMPTY;

  public CleanupRun(String table, CleanupPlan plan, Distribution engine) {
    this(table, plan, engine, CleanupSettings.NO_CAP, new CleanupProgress());
  }

  /**
   * A run that reports its {@code progress}: it starts the dataset's counts, enters each stage and
   * settles what the engine reduced; the engine may add its tasks' counts live in between.
   *
   * @param maxDeletes the run's {@code max_deletes}, {@link CleanupSettings#NO_CAP} for none
   */
  public CleanupRun(String table, CleanupPlan plan, Distribution engine, long maxDeletes, CleanupProgress progress) {
    this(table, plan, engine, maxDeletes, progress, SweepResume.none());
  }

  /**
   * A run that records its decision and resumes a dead run's sweep as {@code resume} says: the
   * executing runs of every engine.
   */
  public CleanupRun(
      String table, CleanupPlan plan, Distribution engine, long maxDeletes, CleanupProgress progress, SweepResume resume) {
    this.resume = Objects.requireNonNull(resume, "resume");
    this.table = Objects.requireNonNull(table, "table");
    this.plan = Objects.requireNonNull(plan, "plan");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.maxDeletes = maxDeletes;
    this.progress = Objects.requireNonNull(progress, "progress");
    progress.startDataset(plan.facts().describe(), plan.manifestCount());
  }

  /** Stage {@link CleanupStage#PLAN}, on the driver, logged the same way by every engine. */
  public static CleanupPlan plan(TableStorage storage, CleanupPlanner planner, DatasetCleanup cleanup) {
    long started = System.nanoTime();
    S3Inventory inventory = cleanup.inventory() == null ? null : S3Inventory.open(cleanup.inventory(), storage::openOther);
    CleanupPlan plan = planner.plan(storage, cleanup.policy(), cleanup.dataset(), cleanup.now().toEpochMilli(), inventory);
    if (inventory != null) {
      LOG.info(
          "lance cleanup {} [{}]: listing from {} ({} data files); versions committed after it are"
              + " kept, files modified after it are not candidates",
          plan.facts().describe(), CleanupStage.PLAN.label(), plan.facts().inventory(), plan.listings().size());
    }
    LOG.info(
        "lance cleanup {} [{}]: latest version {}, {} manifests of the table, {} slices, {} directories; policy {} ({} ms)",
        plan.facts().describe(), CleanupStage.PLAN.label(), plan.facts().latestVersion(),
        plan.tableManifestCount(), plan.slices().size(), plan.listings().size(), cleanup.policy(), millisSince(started));
    return plan;
  }

  /** Every stage in order: {@link #decide()}, then {@link #sweep()}. */
  public CleanupCounters execute() {
    decide();
    return sweep();
  }

  /**
   * Mark, the tagged-versions gate, list, decide and the referenced-files gate: after it returns,
   * the engine holds the decision and nothing has been deleted, and the run recorded its plan.
   * When it resumes a dead run's sweep ({@link SweepResume}), it still marks, then lists only what
   * that run decided and decides it again; the referenced-files gate, which needs a listing of the
   * whole dataset, is the dead run's, passed on the same manifests.
   */
  public void decide() {
    Optional<CleanupPlan> resumed = resume.resumable(plan);
    // The plan the engine lists: the dead run's decided parts when resuming. Given to mark too, since
    // an engine may start its listing with the mark (the local engine does).
    CleanupPlan listing = resumed.orElse(plan);
    progress.enterStage(CleanupStage.MARK.label(), CleanupStage.MARK.work());
    long started = System.nanoTime();
    MarkSummary summary = engine.mark(listing);
    marked = summary;
    progress.settleManifestsRead(summary.manifestsRead());
    LOG.info(
        "lance cleanup {} [{}]: {} manifests read, {} versions expire ({} ms)",
        table, CleanupStage.MARK.label(), summary.manifestsRead(), summary.expiredVersions(), millisSince(started));
    DecisionContext context = taggedVersionsGate(plan.facts()).check(summary);
    progress.enterStage(CleanupStage.LIST.label(), CleanupStage.LIST.work());
    started = System.nanoTime();
    OptionalLong listed = engine.list(listing);
    if (listed.isPresent()) {
      progress.settleFilesListed(listed.getAsLong());
      LOG.info(
          "lance cleanup {} [{}]: {} files in {} {} ({} ms)",
          table, CleanupStage.LIST.label(), listed.getAsLong(), listing.listings().size(),
          resumed.isPresent() ? "recorded parts" : "directories", millisSince(started));
    }
    progress.enterStage(CleanupStage.DECIDE.label(), CleanupStage.DECIDE.work());
    started = System.nanoTime();
    UnlistedReferences unlisted = engine.decide(listing, context);
    referencedFilesGate(plan.facts(), resumed.isPresent()).check(unlisted);
    resume.recordPlan(plan, summary, engine::decideTasks);
    LOG.info("lance cleanup {} [{}]: decided ({} ms)", table, CleanupStage.DECIDE.label(), millisSince(started));
  }

  /** The dead run whose sweep this run resumed, empty when it listed and decided in full. */
  public String resumedFrom() {
    return resume.resumedFrom();
  }

  /**
   * Sweep, and the release of the expired manifests when no delete of the sweep failed or was
   * deferred, within what is left of {@code max_deletes}; then, when both were complete, the
   * retirement of the expiry records the mark stage used.
   */
  public CleanupCounters sweep() {
    progress.enterStage(CleanupStage.SWEEP.label(), CleanupStage.SWEEP.work());
    long started = System.nanoTime();
    CleanupCounters files = engine.sweepDecided(maxDeletes);
    progress.settleRemoved(files);
    LOG.info("lance cleanup {} [{}]: {} ({} ms)", table, CleanupStage.SWEEP.label(), files, millisSince(started));
    if (!releasesExpiredManifests(table, files)) {
      return files;
    }
    progress.enterStage(CleanupStage.RELEASE.label(), CleanupStage.RELEASE.work());
    started = System.nanoTime();
    CleanupCounters manifests = engine.sweepExpiredManifests(manifestBudget(maxDeletes, files));
    CleanupCounters all = files.plus(manifests);
    progress.settleRemoved(all);
    LOG.info("lance cleanup {} [{}]: {} ({} ms)", table, CleanupStage.RELEASE.label(), manifests, millisSince(started));
    if (!marked.expiryRecordsUsed().isEmpty() && retiresExpiryRecords(table, plan.facts(), all)) {
      engine.retireExpiryRecords(plan, marked.expiryRecordsUsed());
    }
    return all;
  }

  /**
   * The gate after mark: refuses the run when the policy would remove tagged versions and {@code
   * error_if_tagged_old_versions} is on, otherwise gives the decide stage its context.
   */
  public static Gate<MarkSummary, DecisionContext> taggedVersionsGate(RetentionFacts facts) {
    return summary -> {
      summary.refuseTaggedOldVersions(facts);
      return DecisionContext.of(facts, summary);
    };
  }

  /** The gate after decide: refuses the run when a retained version needs a file nobody listed. */
  public static Gate<UnlistedReferences, UnlistedReferences> referencedFilesGate(RetentionFacts facts) {
    return unlisted -> {
      unlisted.refuseIfAny(facts);
      return unlisted;
    };
  }

  /**
   * The gate after decide of a run that listed in full ({@link #referencedFilesGate(RetentionFacts)}),
   * or of one that resumed a dead run's sweep: that run listed only what the dead run decided, so a
   * key no listed file carries says nothing about a missing file; the dead run passed this gate on
   * the same manifests (its plan was recorded only then), so nothing is refused and nothing held back.
   */
  public static Gate<UnlistedReferences, UnlistedReferences> referencedFilesGate(RetentionFacts facts, boolean resumed) {
    return resumed ? unlisted -> UnlistedReferences.NONE : referencedFilesGate(facts);
  }

  /**
   * Whether the expired manifests may go after a sweep that counted {@code fileCounters}: only when
   * no delete failed and none was deferred by {@code max_deletes}, so that every file the sweep
   * left stays referenced by a manifest and the next run, seeing it as verified again, removes it.
   * (An expired manifest whose files are all gone would be safe to drop, but knowing which those are
   * means holding the file lists of every expired manifest; a capped or failed run keeps them all.)
   * Logs the refusal.
   */
  public static boolean releasesExpiredManifests(String table, CleanupCounters fileCounters) {
    if (fileCounters.failedDeletes() == 0 && fileCounters.deferredDeletes() == 0) {
      return true;
    }
    if (fileCounters.failedDeletes() > 0) {
      LOG.warn(
          "lance cleanup {}: {} deletes failed; keeping the expired manifests so the next run retries",
          table, fileCounters.failedDeletes());
    } else {
      LOG.info(
          "lance cleanup {}: max_deletes reached, {} files left for the next run; keeping the expired manifests"
              + " so that it still sees them as verified",
          table, fileCounters.deferredDeletes());
    }
    return false;
  }

  /**
   * Whether the expiry records a run used may go after its sweep and release counted {@code
   * counters}: only when no delete failed and none was deferred by {@code max_deletes}, and the run
   * listed the store itself. Then every file a record names is gone, or still referenced by a
   * version the run kept (kept wins, and that version's own marks protect it from now on), or was
   * left by the rules one Lance cleanup also applies (newer than the earliest retained version, a
   * link): the table is as one Lance cleanup with the policy leaves it, which remembers nothing of
   * the removed versions, so neither may later runs. An inventory or a file list view may not show
   * a file written after it, which a later run listing the store must still see as verified: such a
   * run keeps its records. Why this is exact: docs/cleanup-semantics.md, section 17. Logs the refusal.
   */
  public static boolean retiresExpiryRecords(String table, RetentionFacts facts, CleanupCounters counters) {
    if (facts.inventory() != null) {
      LOG.info("lance cleanup {}: listed from {}; keeping the expiry records for a run that lists the store",
          table, facts.inventory());
      return false;
    }
    if (counters.failedDeletes() > 0 || counters.deferredDeletes() > 0) {
      LOG.info("lance cleanup {}: the sweep did not finish; keeping the expiry records for the next run", table);
      return false;
    }
    return true;
  }

  /**
   * What {@code max_deletes} leaves for the expired manifests after a sweep that deleted every file
   * it decided. Any part of them may go: every file they name that the run decided is gone, so a
   * manifest left behind protects nothing, and its version (expired, unreadable now) goes in the next
   * run. Manifests still go last.
   */
  public static long manifestBudget(long maxDeletes, CleanupCounters fileCounters) {
    return maxDeletes == CleanupSettings.NO_CAP ? maxDeletes : Math.max(0, maxDeletes - fileCounters.deletesAttempted());
  }

  /** Manifests the mark stage decoded, once {@link #decide()} returned. */
  public long manifestsRead() {
    return marked.manifestsRead();
  }

  /** The result of this run once {@link #execute()} returned {@code counters}. */
  public CleanupResult result(CleanupMode mode, MarkMode markMode, CleanupCounters counters, long durationMillis) {
    return result(table, mode, plan.facts().latestVersion(), counters, durationMillis, markMode, marked.manifestsRead(),
        resume.resumedFrom());
  }

  /** The result of one dataset's cleanup, logged the same way by every engine. */
  public static CleanupResult result(
      String table, CleanupMode mode, long readVersion, CleanupCounters counters, long durationMillis,
      MarkMode markMode, long manifestsRead, String resumedFrom) {
    LOG.info("lance cleanup {} done in {} ms{}: {}", table, durationMillis,
        resumedFrom.isEmpty() ? "" : ", resuming the sweep of " + resumedFrom, counters);
    return new CleanupResult(table, mode, readVersion, counters, durationMillis, markMode, manifestsRead, resumedFrom);
  }

  private static long millisSince(long nanoTime) {
    return (System.nanoTime() - nanoTime) / 1_000_000;
  }
}
