package dev.lancemaintenance.runs;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.ProgressSnapshot;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records one run that deletes, from its driver: its start beside its plan and before it writes or
 * deletes anything in the table, its end when it returns or fails. Never fails the run: a record
 * the store refuses is logged and the run goes on (its history then lacks it, which misleads nobody
 * into deleting anything).
 */
public final class RunRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(RunRecorder.class);

  private final RunRecords records;
  private final RunStart start;
  private final Clock clock;
  /**
   * Whether the start record was written, once it was: it is written beside the run's plan ({@link
   * #start}), and everything that needs it waits for it ({@link #started()}).
   */
  private final CompletableFuture<Boolean> startWritten;
  /** The dead run before this one, looked up beside the lease's take, the start record and the run's planning. */
  private final CompletableFuture<Optional<RunStart>> deadRunStart;
  private volatile boolean recordsFiles;
  /** What each dataset's run did about a dead run's sweep, for the end record's {@code resume}. */
  private final java.util.List<String> resumeNotes = new java.util.concurrent.CopyOnWriteArrayList<>();

  private RunRecorder(
      RunRecords records, RunStart start, Clock clock, CompletableFuture<Boolean> startWritten,
      CompletableFuture<Optional<RunStart>> deadRunStart) {
    this.records = records;
    this.start = start;
    this.clock = clock;
    this.startWritten = startWritten;
    this.deadRunStart = deadRunStart;
  }

  /**
   * Records that a run begins now, holding {@code lease}, and looks for a dead run to resume, both
   * beside the caller's next steps (its plan, which only reads the table); the record once the
   * lease's take completed ({@link TableLease#awaitTaken}: a run may start reading at the look at
   * the lease's head, but writes nothing before its lease is confirmed; when another run won it,
   * nothing is recorded, and {@link #decidedFiles}, {@link #recordFiles} and {@link #deadRun} throw
   * its {@link dev.lancemaintenance.storage.LeaseHeldException}, so the run fails before its mark):
   * on local disk the record is a file created and linked, on an object store a PUT, and neither
   * need hold up the plan's listing. The record is still written before the run writes or deletes
   * anything in the table: its decision is recorded beside the start ({@link #decidedFiles}), its
   * deleted files too ({@link #recordFiles}), and both wait for the start record, as does {@link
   * #deadRun}, which the run asks before its first delete. So a run killed once it wrote or deleted
   * anything leaves a start without an end, as before; one killed while it was still planning may
   * leave no record, and had changed nothing (docs/ledger.md, section 9, "Who writes").
   *
   * @param policy the policy and settings as the run logs them; never storage options
   */
  public static RunRecorder start(
      TableStorage storage, Clock clock, TableLease lease, DatasetRef dataset, String engine, String action, String policy) {
    RunStart start = new RunStart(
        "run-" + UUID.randomUUID(), lease.holder().owner(), storage.location().toString(), dataset, engine, action, clock.instant(), policy);
    RunRecords records = new RunRecords(storage);
    // The dead-run lookup goes beside the lease's take and the start record, not after them: the
    // runs before this one are fixed once the run saw the lease free (a run that starts later must
    // take the lease first, and then this run's take fails and it writes nothing), and the lookup
    // passes over this run's own start whether it landed or not (docs/ledger.md, section 9).
    CompletableFuture<Optional<RunStart>> lookup =
        DaemonThreads.beside("lance-run-lookup", () -> deadRunBefore(records, start));
    CompletableFuture<Boolean> written = DaemonThreads.beside("lance-run-record", () -> {
      lease.awaitTaken();
      return writeStart(records, start);
    });
    // A take another run won (or an Error) fails the start record's future, and whatever waits for
    // the start record fails with it.
    return new RunRecorder(records, start, clock, written, lookup);
  }

  /**
   * Whether the start record was written, waiting for it if it is still being written; throws the
   * lease's {@link dev.lancemaintenance.storage.LeaseHeldException} when another run won its take.
   */
  private boolean started() {
    return DaemonThreads.join(startWritten);
  }

  /** As {@link #started}, false when the take failed: for the end record, which then writes nothing. */
  private boolean startedQuietly() {
    try {
      return started();
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean writeStart(RunRecords records, RunStart start) {
    try {
      boolean written = records.writeStart(start);
      if (!written) {
        LOG.warn("lance maintenance {}: run record {} exists already; not recording this run", start.table(), RunRecords.path(start, RunRecords.START));
      }
      return written;
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not record the start of run {} (the run goes on): {}", start.table(), start.runId(), e.getMessage());
      return false;
    }
  }

  /**
   * The newest other run when it died ({@link RunRecords#deadRunBefore}); the lease in force is this
   * run's own, which it holds. Never fails the run: a listing the store refuses means a full run.
   */
  private static Optional<RunStart> deadRunBefore(RunRecords records, RunStart start) {
    try {
      return records.deadRunBefore(start.runId(), Optional.of(start.leaseOwner()));
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not look for a dead run to resume (running in full): {}", start.table(), e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * Where this run's sweep tasks record the files they delete ({@code <run>.files/} beside its
   * record); empty when its start could not be recorded, so that no file list is orphaned of its run.
   */
  public Optional<RecordedFiles> recordFiles() {
    recordsFiles = started();
    return recordsFiles ? Optional.of(new RecordedFiles(RunRecords.filesDir(start))) : Optional.empty();
  }

  /**
   * Where this run records its plan and the files its decide tasks decided ({@code <run>.decided/}
   * beside its record), so that a later run can resume its sweep should it die; empty when its start
   * could not be recorded (a plan nobody can find resumes nothing).
   */
  public Optional<RecordedFiles> decidedFiles() {
    return started() ? Optional.of(new RecordedFiles(RunRecords.decidedDir(start))) : Optional.empty();
  }

  /**
   * The dead run this run may resume the sweep of ({@link RunRecords#deadRunBefore}); empty when
   * there is none or this run's own start was not recorded. Never fails the run: a listing the
   * store refuses means a full run.
   */
  public Optional<DeadRun> deadRun() {
    Optional<RunStart> found = DaemonThreads.join(deadRunStart);
    // No dead run: nothing to resume, whether this run's start landed yet or not (what the run
    // writes waits for it where it writes). A dead run is resumed only by a run whose start landed.
    if (found.isEmpty() || !started()) {
      return Optional.empty();
    }
    return found.map(dead -> new DeadRun(dead.runId(), new RecordedFiles(RunRecords.decidedDir(dead))));
  }

  /**
   * A run that died without an end, and where it recorded its plan and decided files.
   *
   * @param runId its id
   * @param decided its {@code .decided} directory (a branch's under {@code tree/<branch>/})
   */
  public record DeadRun(String runId, RecordedFiles decided) {
    /** Its record of one dataset of the run: a branch cleaned first has its own. */
    public DeadRun forDataset(dev.lancemaintenance.format.DatasetRef dataset) {
      return new DeadRun(runId, decided.forDataset(dataset));
    }
  }

  /** Notes, for the end record, whether a dataset's run resumed a dead run's sweep or started over and why. */
  public void noteResume(String note) {
    resumeNotes.add(note);
  }

  /** The id of the recorded run. */
  public String runId() {
    return start.runId();
  }

  /**
   * Records that the run returned {@code result}, having reached {@code progress}: its counters, mark
   * mode and manifests read are the result's, so the record says what the result row says.
   */
  public void finished(CleanupResult result, ProgressSnapshot progress) {
    end(RunState.FINISHED, result.namedCounters(), progress.stage(), markModeName(result.markMode()),
        OptionalLong.of(result.manifestsRead()), "");
  }

  /**
   * {@link #finished} and the prune of ended runs' records ({@link RunRecords#pruning}) side by side,
   * its listing taken while the run still holds the lease and its delete beside the lease's release
   * ({@link TableLease#besideRelease}): on an object store the end record and the listing wait one
   * round trip, then the delete and the release one more, not two in a row. Should the run die
   * before its end lands, its own decision may be gone already: the next run finds it unfinished
   * with no readable plan and starts over, as for any dead run whose plan it cannot read. Why the
   * delete may go beside the release: docs/ledger.md, section 9 ("Pruning").
   */
  public void finishedAndPruned(CleanupResult result, ProgressSnapshot progress) {
    CompletableFuture<Optional<RunRecords.Pruning>> listing =
        DaemonThreads.beside("lance-run-record", this::endedRunsToPrune);
    finished(result, progress);
    listing.join().ifPresent(pruning -> TableLease.besideRelease(records.storage(), "lance-run-prune", storage -> {
      new RunRecords(storage).delete(pruning);
      if (pruning.runs() > 0) {
        LOG.info("lance maintenance {}: pruned the records of {} ended runs (keeping the newest {} and every unfinished one)",
            start.table(), pruning.runs(), RunRecords.KEEP_ENDED_RUNS);
      }
    }));
  }

  /**
   * What the prune removes: every run's recorded decision (none is resumed once a run finished) and
   * the records of ended runs beyond the newest {@link RunRecords#KEEP_ENDED_RUNS}; empty when the
   * run recorded no start, or the listing failed (logged: the prune never fails the run).
   */
  private Optional<RunRecords.Pruning> endedRunsToPrune() {
    if (!startedQuietly()) {
      return Optional.empty();
    }
    try {
      return Optional.of(records.pruning(RunRecords.KEEP_ENDED_RUNS));
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not prune run records (the run goes on): {}", start.table(), e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * Records that the run failed with {@code error}. Of its counters only the bytes freed so far are
   * known (the per-kind counts are reduced at the sweep's end, which it did not reach); the rest
   * stay NULL rather than a zero that reads as "nothing removed".
   */
  public void failed(Throwable error, ProgressSnapshot progress, MarkMode markMode) {
    OptionalLong manifestsRead = progress.stage().isEmpty() ? OptionalLong.empty() : OptionalLong.of(progress.manifestsRead());
    end(RunState.FAILED, Map.of("bytes_removed", progress.bytesFreed()), progress.stage(), markModeName(markMode),
        manifestsRead, oneLine(error));
  }

  private static String markModeName(MarkMode mode) {
    return mode.name().toLowerCase(Locale.ROOT);
  }

  private void end(
      RunState state, Map<String, Long> counters, String stage, String markMode, OptionalLong manifestsRead, String error) {
    if (!startedQuietly()) {
      return;
    }
    RunEnd end = new RunEnd(
        start.runId(), clock.instant(), state, stage, markMode, manifestsRead, counters, error, recordedParts(),
        String.join("; ", resumeNotes));
    try {
      records.writeEnd(start, end);
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not record the end of run {}; its history shows it unfinished: {}",
          start.table(), start.runId(), e.getMessage());
    }
  }

  /** The parts the sweep tasks wrote, by name (a listing, no read); empty unless the run records files. */
  private OptionalLong recordedParts() {
    if (!recordsFiles) {
      return OptionalLong.empty();
    }
    RecordedFiles files = new RecordedFiles(RunRecords.filesDir(start));
    try {
      return OptionalLong.of(files.countParts(records.storage()));
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not list the files recorded by run {}: {}", start.table(), start.runId(), e.getMessage());
      return OptionalLong.empty();
    }
  }

  /** The error's first line, its type when it has no message. */
  static String oneLine(Throwable error) {
    String message = error.getMessage();
    if (message == null || message.isBlank()) {
      return error.getClass().getName();
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
