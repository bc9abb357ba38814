package dev.lancemaintenance.cleanup.engine;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.runs.RunPlan;
import dev.lancemaintenance.runs.RunRecorder.DeadRun;
import dev.lancemaintenance.storage.TableStorage;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one home of resuming a dead run's sweep (docs/ledger.md section 9, docs/cleanup-semantics.md
 * "Resuming a dead run's sweep"), for one dataset of a run that deletes.
 *
 * <p>Recording: once the referenced-files gate passed and before the first delete, the run writes
 * its {@link RunPlan} ({@link #recordPlan}); its decide tasks have written what they decided, one
 * whole part per task ({@link RecordedFiles#decidePart}), as they decided it.
 *
 * <p>Resuming: a run that finds a dead run ({@link DeadRun}) compares that run's plan with its own
 * plan stage ({@link #planOf}): the same latest version, the same manifests (path, length,
 * modification time) of the dataset and of every branch reading it, the same tags and fork points,
 * the same resolved policy but for a cut-off that may have moved later as long as it expires the
 * same versions ({@link #otherVersionsExpire}: a duration {@code older_than} resolved against a
 * later clock), the same listing source. When all hold and every decide task left a whole part,
 * the run lists nothing: its list stage reads the recorded parts instead ({@link #resumable}), and
 * its decide stage decides each recorded file again, against this run's own marks and clock,
 * through the same rules. So a file goes only if the dead run recorded it (it decided it, or kept it
 * only for its age: {@code DecideByPath#decideAndRecord}) and this run decides it; a recorded file
 * that is gone already counts as deleted. Any difference, an unreadable
 * plan, or a task without a whole part: the run starts over, lists and decides in full, and says
 * why. Never on the record's word alone, and never with less than a full run's marks.
 */
public final class SweepResume {
  private static final Logger LOG = LoggerFactory.getLogger(SweepResume.class);
  private static final SweepResume NONE = new SweepResume(null, Optional.empty(), Optional.empty(), note -> {});

  /** The resolved cut-off, a fact of its own: compared by {@link #otherVersionsExpire}. */
  static final String BEFORE_TIMESTAMP = "before_timestamp";
  /** The oldest timestamp (epoch nanoseconds) of a version the run retained with its files. */
  static final String EARLIEST_RETAINED = "earliest_retained_nanos";
  private static final List<String> CUT_OFF_FACTS = List.of(BEFORE_TIMESTAMP, EARLIEST_RETAINED);
  private static final String NONE_SET = "none";

  private final TableStorage storage;
  private final Supplier<Optional<RecordedFiles>> own;
  /**
   * False when the run is known to record nothing (a dry run, a start record the store refused):
   * then it has no plan to record, and {@link #resumable} works none out.
   */
  private final boolean mayRecord;
  private final Optional<DeadRun> dead;
  private final Consumer<String> notes;
  private volatile String resumedFrom = "";
  /** This run's plan facts, worked out beside the mark by {@link #resumable}; recorded by {@link #recordPlan}. */
  private volatile PlannedFacts planned;

  /** The facts of {@code plan} (as {@link #planOf} gives them), done or under way. */
  private record PlannedFacts(CleanupPlan plan, CompletableFuture<RunPlan> facts) {}

  /**
   * @param storage the table's storage, open for the run of the dataset
   * @param own where this run records its plan and decided parts for the dataset; empty when it
   *     does not record them (its start record could not be written)
   * @param dead the dead run it may resume, with its record of the dataset; empty when none
   * @param notes told whether the run resumed or started over, and why: the run record's {@code resume}
   */
  public SweepResume(TableStorage storage, Optional<RecordedFiles> own, Optional<DeadRun> dead, Consumer<String> notes) {
    this(storage, constant(Objects.requireNonNull(own, "own")), own.isPresent(), dead, notes);
  }

  /**
   * As above, with where this run records its decision asked only when the run needs it ({@link
   * #decidedFiles}, at its decision; {@link #recordPlan}): on an object store the run's start
   * record, which that answer waits for, then goes beside its plan and mark instead of before the
   * mark (docs/ledger.md, section 9, "The take beside the plan").
   */
  public SweepResume(TableStorage storage, Supplier<Optional<RecordedFiles>> own, Optional<DeadRun> dead, Consumer<String> notes) {
    this(storage, own, true, dead, notes);
  }

  private SweepResume(TableStorage storage, Supplier<Optional<RecordedFiles>> own, boolean mayRecord,
      Optional<DeadRun> dead, Consumer<String> notes) {
    this.storage = storage;
    this.own = Objects.requireNonNull(own, "own");
    this.mayRecord = mayRecord;
    this.dead = Objects.requireNonNull(dead, "dead");
    this.notes = Objects.requireNonNull(notes, "notes");
  }

  /** Neither records nor resumes: a dry run. */
  public static SweepResume none() {
    return NONE;
  }

  private static Supplier<Optional<RecordedFiles>> constant(Optional<RecordedFiles> own) {
    return () -> own;
  }

  /**
   * Where this run's decide tasks record what they decide; empty when it records nothing. May wait
   * for the run's start record; throws when the run lost its lease's take.
   */
  public Optional<RecordedFiles> decidedFiles() {
    return own.get();
  }

  /** The id of the dead run this run resumed, once {@link #resumable} said so; empty otherwise. */
  public String resumedFrom() {
    return resumedFrom;
  }

  /**
   * {@code plan} with the dead run's decided parts as its listings when that run's plan still holds;
   * empty (and the reason logged and noted) when the run must list and decide in full.
   */
  public Optional<CleanupPlan> resumable(CleanupPlan plan) {
    if (dead.isEmpty()) {
      // The digest of every listed manifest (2,020 on steady) is a pure function of the plan, so
      // it is worked out beside the mark instead of between the decision and the first delete;
      // where whether the run records is known only once its start record landed, whenever it may.
      if (mayRecord) {
        planned = new PlannedFacts(plan, DaemonThreads.beside("lance-run-plan", () -> planOf(plan, 1)));
      }
      return Optional.empty();
    }
    DeadRun run = dead.get();
    RecordedFiles decided = run.decided();
    String table = plan.facts().describe();
    RunPlan recorded;
    try {
      recorded = RunPlan.decode(storage.readFully(decided.planPath()));
    } catch (RuntimeException e) {
      return startOver(plan, run.runId() + " left no readable plan (" + e.getMessage() + ")");
    }
    RunPlan current = planOf(plan, recorded.decideTasks());
    planned = new PlannedFacts(plan, CompletableFuture.completedFuture(current));
    Optional<String> changed = recorded.without(CUT_OFF_FACTS).differenceFrom(current.without(CUT_OFF_FACTS));
    if (changed.isPresent()) {
      return startOver(plan, "the table changed since " + run.runId() + ": " + changed.get());
    }
    Optional<String> otherVersions = otherVersionsExpire(recorded, current);
    if (otherVersions.isPresent()) {
      return startOver(plan, "other versions expire than in " + run.runId() + ": " + otherVersions.get());
    }
    RecordedFiles.DecidedParts parts = decided.decidedParts(storage, recorded.decideTasks());
    if (!parts.complete()) {
      return startOver(plan, run.runId() + " did not finish deciding: " + parts.problem());
    }
    DatasetRef dataset = plan.facts().dataset();
    List<ListingTask> listings = parts.parts().stream().map(part -> ListingTask.fromRecord(dataset, part)).toList();
    resumedFrom = run.runId();
    note(plan.facts().dataset(), "resumed from " + run.runId());
    LOG.info("lance cleanup {}: resuming the sweep of dead run {} from its {} decided parts: no listing, every"
        + " recorded file decided again against this run's marks", table, run.runId(), listings.size());
    return Optional.of(new CleanupPlan(plan.facts(), plan.slices(), listings));
  }

  private Optional<CleanupPlan> startOver(CleanupPlan plan, String reason) {
    note(plan.facts().dataset(), "started over: " + reason);
    LOG.info("lance cleanup {}: not resuming, listing and deciding in full: {}", plan.facts().describe(), reason);
    return Optional.empty();
  }

  private void note(DatasetRef dataset, String note) {
    notes.accept(dataset.isMain() ? note : dataset.dir() + ": " + note);
  }

  /**
   * Why a rerun whose plan is the dead run's but for {@code before_timestamp} may expire other
   * versions than the dead run did; empty when it expires exactly the same ones (docs/cleanup-
   * semantics.md, section 19). A version qualifies when its manifest's timestamp is before the
   * cut-off, so a later cut-off expires every version the earlier one did, and more only when some
   * version that kept its files under the earlier one is older than the later: none is when the
   * later cut-off is no later than the oldest such timestamp, which the dead run recorded from its
   * marks ({@link #withMarks}). Same versions, manifests, tags and bounds, so the same marks, the
   * same expired manifests and the same listing cut-off. An earlier cut-off, one set on one side
   * only, or a plan without that timestamp: other versions may expire.
   */
  static Optional<String> otherVersionsExpire(RunPlan recorded, RunPlan current) {
    String before = recorded.fact(BEFORE_TIMESTAMP).orElse(NONE_SET);
    String now = current.fact(BEFORE_TIMESTAMP).orElse(NONE_SET);
    String change = BEFORE_TIMESTAMP + " " + before + " -> " + now;
    if (before.equals(now)) {
      return Optional.empty();
    }
    if (before.equals(NONE_SET) || now.equals(NONE_SET) || Instant.parse(now).isBefore(Instant.parse(before))) {
      return Optional.of(change);
    }
    Optional<String> retained = recorded.fact(EARLIEST_RETAINED);
    if (retained.isEmpty()) {
      return Optional.of(change + ", and its plan does not say when its oldest retained version was written");
    }
    long earliestRetainedNanos = Long.parseLong(retained.get());
    if (CleanupPolicy.toEpochNanos(Instant.parse(now)) > earliestRetainedNanos) {
      return Optional.of(change + " passes its oldest retained version (" + instantOf(earliestRetainedNanos) + ")");
    }
    return Optional.empty();
  }

  private static String instantOf(long epochNanos) {
    return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L)).toString();
  }

  /**
   * Records this run's plan, once its decision stands (the referenced-files gate passed) and before
   * its first delete, with what its mark stage found ({@link #withMarks}); {@code decideTasks} is
   * asked only when the run records. Never fails the run: a plan that cannot be written means the
   * next run starts over.
   */
  public void recordPlan(CleanupPlan plan, MarkSummary marks, IntSupplier decideTasks) {
    own.get().ifPresent(decided -> decided.writePlan(storage, withMarks(planned(plan, decideTasks.getAsInt()), marks)));
  }

  /** {@link #planOf}, from the facts {@link #resumable} worked out for the same plan when it did. */
  private RunPlan planned(CleanupPlan plan, int decideTasks) {
    PlannedFacts facts = planned;
    if (facts == null || facts.plan() != plan) {
      return planOf(plan, decideTasks);
    }
    return new RunPlan(DaemonThreads.join(facts.facts()).facts(), decideTasks);
  }

  /**
   * {@code plan} with the timestamp of the oldest version its run retained with its files, from the
   * reduced {@code marks}: how far a later run's cut-off may move and still expire the same versions
   * ({@link #otherVersionsExpire}). Only a run that marked knows it; a plan stage does not.
   */
  public static RunPlan withMarks(RunPlan plan, MarkSummary marks) {
    return plan.with(EARLIEST_RETAINED, Long.toString(marks.earliestRetainedNanos()));
  }

  /**
   * The facts of a plan stage that decide what a run deletes, as a resume compares them: everything
   * the decision depends on besides the listing (which the decided parts replace) and the marks
   * (which the resumed run makes itself). Manifests as a digest of every listed one, whatever the
   * slicing: the plan holds them on the driver already.
   */
  public static RunPlan planOf(CleanupPlan plan, int decideTasks) {
    RetentionFacts facts = plan.facts();
    Map<String, String> recorded = new LinkedHashMap<>();
    recorded.put("dataset", facts.dataset().isMain() ? "main" : facts.dataset().dir());
    recorded.put("latest_version", Long.toUnsignedString(facts.latestVersion()));
    List<String> manifests = plan.slices().stream()
        .flatMap(slice -> slice.manifests().stream().map(manifest -> String.join("\t", slice.role().name(),
            manifest.path(), Long.toString(manifest.size()), Long.toString(manifest.modificationTimeMillis()))))
        .sorted()
        .toList();
    recorded.put("manifests", Integer.toString(manifests.size()));
    recorded.put("manifests_sha256", sha256(manifests));
    List<String> tags = new TreeMap<>(facts.tagsByVersion()).entrySet().stream()
        .map(tag -> tag.getKey() + "=" + String.join(",", tag.getValue().stream().sorted().toList()))
        .toList();
    recorded.put("tags", Integer.toString(tags.size()));
    recorded.put("tags_sha256", sha256(tags));
    recorded.put("fork_points", facts.forkPoints().stream().sorted().map(String::valueOf).toList().toString());
    CleanupPolicy policy = facts.policy();
    // The cut-off apart, so that a later one (a duration resolved against a later clock) is compared
    // by its own rule; an orphan sweep's is the files' cut-off, compared whole with its policy.
    recorded.put("policy", policy.orphanSweep() ? policy.toString() : withoutCutOff(policy).toString());
    recorded.put(BEFORE_TIMESTAMP, policy.beforeTimestamp().map(Instant::toString).orElse(NONE_SET));
    recorded.put("listed_from", facts.inventory() == null ? "the store" : facts.inventory().toString());
    return new RunPlan(recorded, decideTasks);
  }

  private static CleanupPolicy withoutCutOff(CleanupPolicy policy) {
    return new CleanupPolicy(Optional.empty(), policy.beforeVersion(), policy.deleteUnverified(),
        policy.errorIfTaggedOldVersions(), policy.cleanReferencedBranches(), policy.unverifiedGuard(),
        policy.retainLast(), false);
  }

  private static String sha256(List<String> lines) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      lines.forEach(line -> digest.update((line + "\n").getBytes(StandardCharsets.UTF_8)));
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}
