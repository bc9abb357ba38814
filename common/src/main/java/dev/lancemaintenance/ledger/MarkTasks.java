package dev.lancemaintenance.ledger;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks of stage 2, mark, for every engine: decides, on the driver, what must be decoded and
 * what the maintenance ledger answers, so that the engines only distribute.
 *
 * <p>{@link MarkMode#FULL}: a decode task per slice of the plan. Otherwise, for the versions of the
 * dataset being cleaned: the ledger is read ({@link IncrementalMark#begin}); the manifests it cannot
 * answer for (newer than its end, or all of them when it is unusable) are summarised in parallel
 * runs by the engine ({@link Decoder#summarise}); the driver joins the summaries and derives every
 * mark from the ledger without reading a manifest, handed on as {@link MarkTask.Derived} tasks.
 * Slices of branches that read the dataset are always decoded. In {@link MarkMode#VERIFY} the
 * engine also marks the dataset's slices in full and the two must agree ({@link MarkVerification}).
 *
 * <p>In every mode the dataset's expiry records ({@link ExpiryRecords}, written by {@code
 * expire_versions}) add {@link ExpiryRecordMarks} tasks, which read the records where the engine
 * runs them and mark the files of versions whose manifests are gone {@link
 * dev.lancemaintenance.cleanup.stage.MarkState#EXPIRED}; kept wins, so they never remove a file a
 * version the run keeps references.
 *
 * <p>The ledger is committed from here, once, on the driver, and only when the run executes (never in
 * a dry run), under the table lease every executing run holds, beside the run's later stages and
 * before the lease's release ({@link TableLease#beforeRelease}): it describes manifests, not the
 * run's decisions, so a run refused later by a gate leaves a correct ledger, and a run that dies
 * before the commit lands leaves the ledger as it was (the next run decodes what it lacks).
 *
 * <p>Memory on the driver: the folded ledger, one entry per version and per reference range of the
 * versions the table still lists (docs/ledger.md), and the marks derived from it until they are
 * shipped, at most {@value #MARKS_PER_TASK} per task; of the expiry records only their names.
 */
public final class MarkTasks {
  private static final Logger LOG = LoggerFactory.getLogger(MarkTasks.class);
  /** Marks per derived task: small enough to ship, large enough to keep the task count low. */
  static final int MARKS_PER_TASK = 50_000;

  /** What an engine runs in parallel for the ledger, collecting the (small) results to the driver. */
  public interface Decoder {
    /** Summarises each run in a task of its own; the summaries in the order of {@code runs}. */
    List<RunSummary> summarise(List<ManifestRun> runs);

    /** Runs the decode tasks and collects their results; only for {@link MarkMode#VERIFY}. */
    List<MarkResult> markInFull(List<MarkTask> tasks);
  }

  private MarkTasks() {}

  /** The mark tasks of one dataset cleanup; commits what the ledger learnt when {@code run} executes. */
  public static List<MarkTask> of(
      TableStorage storage, CleanupPlan plan, MarkMode mode, CleanupMode run, Clock clock, Decoder decoder) {
    return of(storage, plan, mode, run, clock, decoder, LedgerReadAhead.none());
  }

  /** As {@link #of(TableStorage, CleanupPlan, MarkMode, CleanupMode, Clock, Decoder)}, with the ledger read {@code ahead}. */
  public static List<MarkTask> of(
      TableStorage storage, CleanupPlan plan, MarkMode mode, CleanupMode run, Clock clock, Decoder decoder,
      LedgerReadAhead ahead) {
    return of(storage, plan, mode, run, clock, decoder, ahead, false);
  }

  /**
   * As {@link #of(TableStorage, CleanupPlan, MarkMode, CleanupMode, Clock, Decoder, LedgerReadAhead)};
   * with {@code leaveKeySnapshot}, an executing incremental run also leaves the key snapshot of the
   * versions it keeps, from the ledger it folded, for the next run to decide from ({@link
   * KeySnapshotMark}; the local engine's daily run).
   */
  public static List<MarkTask> of(
      TableStorage storage, CleanupPlan plan, MarkMode mode, CleanupMode run, Clock clock, Decoder decoder,
      LedgerReadAhead ahead, boolean leaveKeySnapshot) {
    return of(storage, plan, mode, run, clock, decoder, ahead, leaveKeySnapshot, verified -> { });
  }

  /**
   * As {@link #of(TableStorage, CleanupPlan, MarkMode, CleanupMode, Clock, Decoder, LedgerReadAhead,
   * boolean)}; a {@link MarkMode#VERIFY} run that leaves the key snapshot checks the snapshot's
   * answers against its marks and hands them to {@code verifiedSnapshot} once they agree (the local
   * engine: for the run without a listing's side of verify, {@link ListingSkipVerification}),
   * before this run's ledger commit and next key snapshot are started: what it reads then is still
   * the snapshot it checked, not the one it leaves.
   */
  public static List<MarkTask> of(
      TableStorage storage, CleanupPlan plan, MarkMode mode, CleanupMode run, Clock clock, Decoder decoder,
      LedgerReadAhead ahead, boolean leaveKeySnapshot, Consumer<KeySnapshotMark.Outcome> verifiedSnapshot) {
    // The expiry records are listed beside the manifests' marks, which do not need them (nor they
    // the marks): on an object store one round trip fewer in a row; with a read ahead, its listing
    // of the ledger's directory already holds them. The tasks are the same, in the same order.
    CompletableFuture<List<MarkTask>> records = DaemonThreads.beside("lance-expiry-records", () -> fromExpiryRecords(storage, plan, ahead));
    List<MarkTask> tasks;
    try {
      tasks = new ArrayList<>(fromManifests(storage, plan, mode, run, clock, decoder, ahead, leaveKeySnapshot,
          verifiedSnapshot));
    } finally {
      records.exceptionally(failed -> null).join(); // never left running; its own failure is thrown below
    }
    tasks.addAll(DaemonThreads.join(records));
    return tasks;
  }

  /**
   * What {@code expire_versions} recorded before it deleted manifests: the expired versions' files,
   * marked by tasks that read the records as a cleanup would have marked them had the manifests
   * still been listed (docs/ledger.md, section 10). In every mode: the records stand for manifests
   * that no mode can read any more. The driver lists the records' names (in the listing of the
   * ledger's directory read {@code ahead}, when one was) and reads none.
   */
  private static List<MarkTask> fromExpiryRecords(TableStorage storage, CleanupPlan plan, LedgerReadAhead ahead) {
    return ahead.expiryRecordTasks(storage, plan.facts().dataset());
  }

  private static List<MarkTask> fromManifests(
      TableStorage storage, CleanupPlan plan, MarkMode mode, CleanupMode run, Clock clock, Decoder decoder,
      LedgerReadAhead ahead, boolean leaveKeySnapshot, Consumer<KeySnapshotMark.Outcome> verifiedSnapshot) {
    if (mode == MarkMode.FULL) {
      return MarkTask.decode(plan.slices());
    }
    List<ManifestSlice> own = new ArrayList<>();
    List<ManifestSlice> branches = new ArrayList<>();
    plan.slices().forEach(slice -> (slice.role() == ManifestSlice.SliceRole.TABLE_VERSIONS ? own : branches).add(slice));
    List<ManifestLocation> versions = own.stream().flatMap(slice -> slice.manifests().stream()).toList();
    IncrementalMark.Pending pending = new IncrementalMark(storage, plan.facts(), clock).begin(versions, ahead);
    int runLength = own.stream().mapToInt(slice -> slice.manifests().size()).max().orElse(1);
    List<ManifestRun> runs = ManifestRun.cut(pending.toDecode(), runLength);
    List<RunSummary> summaries = new ArrayList<>(runs.isEmpty() ? List.of() : decoder.summarise(runs));
    // Engines may collect in any order; the runs join in version order.
    summaries.sort(Comparator.comparingLong(summary -> summary.versions().get(0).version()));
    Optional<IncrementalMark.Outcome> outcome = pending.finish(summaries);
    // Joined into the outcome's segment, which holds the fold's instance of each element: let the
    // runs' records go now, not when this method returns. On a first run they are a record per
    // change of the whole history (~60 MB on huge-steady), live beside the marks, the ledger's
    // commit and the key snapshot (docs/ledger.md, section 7).
    summaries.clear();
    if (outcome.isEmpty()) {
      return MarkTask.decode(plan.slices());
    }
    MarkResult fromLedger = outcome.get().result();
    LOG.info("lance cleanup {} [{}]: {} of {} manifests decoded, the ledger answers for the rest{}",
        plan.facts().describe(), CleanupStage.MARK.label(), pending.toDecode().size(), versions.size(),
        outcome.get().ledgerProblem().map(why -> " (ledger rebuilt: " + why + ")").orElse(""));
    if (mode == MarkMode.VERIFY) {
      MarkVerification.requireSame(plan.facts().describe(), fromLedger, decoder.markInFull(MarkTask.decode(own)));
      if (leaveKeySnapshot) {
        // The key snapshot's path too, where the engine takes it: its answers must be the marks.
        Optional<KeySnapshotMark.Outcome> snapshot = KeySnapshotMark.fromSnapshot(storage, plan, decoder, ahead);
        snapshot.ifPresent(answers -> MarkVerification.requireSameAsSnapshot(plan.facts().describe(), fromLedger, answers));
        snapshot.ifPresent(verifiedSnapshot);
      }
    }
    if (run == CleanupMode.EXECUTE) {
      // Beside the rest of the run, still under its lease: the marks are what the ledger now says
      // already, and the run's list, decide and sweep never read the ledger.
      TableLease.beforeRelease(storage, "lance-ledger-commit", outcome.get()::commit);
    }
    if (leaveKeySnapshot) {
      KeySnapshotMark.leaveFromLedger(storage, plan, mode, run, outcome.get().state());
    }
    List<MarkTask> tasks = new ArrayList<>(MarkTask.derived(fromLedger, MARKS_PER_TASK));
    tasks.addAll(MarkTask.decode(branches));
    return tasks;
  }
}
