package dev.lancemaintenance.runs;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.ProgressSnapshot;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records one run that deletes, from its driver: its start before it reads the table, its end when
 * it returns or fails. Never fails the run: a record the store refuses is logged and the run goes
 * on (its history then lacks it, which misleads nobody into deleting anything).
 */
public final class RunRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(RunRecorder.class);

  private final RunRecords records;
  private final RunStart start;
  private final Clock clock;
  private final boolean started;
  private volatile boolean recordsFiles;

  private RunRecorder(RunRecords records, RunStart start, Clock clock, boolean started) {
    this.records = records;
    this.start = start;
    this.clock = clock;
    this.started = started;
  }

  /**
   * Records that a run begins now, holding the lease of {@code leaseOwner}.
   *
   * @param policy the policy and settings as the run logs them; never storage options
   */
  public static RunRecorder start(
      TableStorage storage, Clock clock, String leaseOwner, DatasetRef dataset, String engine, String action, String policy) {
    RunStart start = new RunStart(
        "run-" + UUID.randomUUID(), leaseOwner, storage.location().toString(), dataset, engine, action, clock.instant(), policy);
    RunRecords records = new RunRecords(storage);
    boolean written = false;
    try {
      written = records.writeStart(start);
      if (!written) {
        LOG.warn("lance maintenance {}: run record {} exists already; not recording this run", start.table(), RunRecords.path(start, RunRecords.START));
      }
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not record the start of run {} (the run goes on): {}", start.table(), start.runId(), e.getMessage());
    }
    return new RunRecorder(records, start, clock, written);
  }

  /**
   * Where this run's sweep tasks record the files they delete ({@code <run>.files/} beside its
   * record); empty when its start could not be recorded, so that no file list is orphaned of its run.
   */
  public Optional<RecordedFiles> recordFiles() {
    recordsFiles = started;
    return started ? Optional.of(new RecordedFiles(RunRecords.filesDir(start))) : Optional.empty();
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
   * Deletes the records of ended runs beyond the newest {@link RunRecords#KEEP_ENDED_RUNS}; call
   * after {@link #finished}, while the run still holds the lease. Never fails the run.
   */
  public void pruneEndedRuns() {
    if (!started) {
      return;
    }
    try {
      int pruned = records.prune(RunRecords.KEEP_ENDED_RUNS);
      if (pruned > 0) {
        LOG.info("lance maintenance {}: pruned the records of {} ended runs (keeping the newest {} and every unfinished one)",
            start.table(), pruned, RunRecords.KEEP_ENDED_RUNS);
      }
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not prune run records (the run goes on): {}", start.table(), e.getMessage());
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
    if (!started) {
      return;
    }
    RunEnd end = new RunEnd(
        start.runId(), clock.instant(), state, stage, markMode, manifestsRead, counters, error, recordedParts());
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
