package dev.lancemaintenance.cleanup;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The live progress of one cleanup, which the run feeds and any thread may {@linkplain #snapshot()
 * read} while it runs: the CLI's progress bar, a notebook, a metrics reporter.
 *
 * <p>The run's stages feed it the same way on every engine: {@code CleanupRun} enters each stage and
 * settles the counts the engine reduced; an engine that sees its tasks' counts as they happen (the
 * local one) adds them live in between. Settling never lowers a count, so a live count and the same
 * count reduced at the stage's end are not added twice. Everything is a plain atomic counter: cheap
 * enough to bump once per file, and nothing is kept per file.
 *
 * <p>A cleanup with referenced branches runs one dataset after another; each {@linkplain
 * #startDataset starts} the counts afresh, so the last dataset's counts, the requested one's, end
 * equal to the result's.
 */
public final class CleanupProgress {
  private final LongSupplier nanoTime;
  private volatile String dataset = "";
  private volatile String stage = "";
  private volatile ProgressSnapshot.Work work = ProgressSnapshot.Work.UNCOUNTED;
  private volatile long startNanos;
  private volatile long stageStartNanos;
  private final AtomicLong manifestsToRead = new AtomicLong();
  private final AtomicLong manifestsRead = new AtomicLong();
  private final AtomicLong filesListed = new AtomicLong();
  private final AtomicLong candidates = new AtomicLong();
  private final AtomicLong filesRemoved = new AtomicLong();
  private final AtomicLong bytesFreed = new AtomicLong();

  /** Progress timed by {@link System#nanoTime()}. */
  public CleanupProgress() {
    this(System::nanoTime);
  }

  /** Progress timed by the given monotonic clock in nanoseconds (a fixed one in tests). */
  public CleanupProgress(LongSupplier nanoTime) {
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    this.startNanos = nanoTime.getAsLong();
    this.stageStartNanos = startNanos;
  }

  /** A new dataset's run begins: every count back to zero, the clock restarted. */
  public void startDataset(String description, long manifestsToRead) {
    dataset = Objects.requireNonNull(description, "description");
    stage = "";
    work = ProgressSnapshot.Work.UNCOUNTED;
    for (AtomicLong count : new AtomicLong[] {manifestsRead, filesListed, candidates, filesRemoved, bytesFreed}) {
      count.set(0);
    }
    this.manifestsToRead.set(manifestsToRead);
    startNanos = nanoTime.getAsLong();
    stageStartNanos = startNanos;
  }

  /**
   * The run enters a stage, by its label ({@code "2/6 mark"}) and what it works through; the
   * stage's rate is timed from here.
   */
  public void enterStage(String label, ProgressSnapshot.Work stageWork) {
    stageStartNanos = nanoTime.getAsLong();
    work = Objects.requireNonNull(stageWork, "stageWork");
    stage = Objects.requireNonNull(label, "label");
  }

  /** Live: {@code count} more manifests decoded. */
  public void manifestsRead(long count) {
    manifestsRead.addAndGet(count);
  }

  /** Live: {@code count} more files listed. */
  public void filesListed(long count) {
    filesListed.addAndGet(count);
  }

  /** Live: {@code count} more files decided to go (candidates of the sweep). */
  public void candidates(long count) {
    candidates.addAndGet(count);
  }

  /** Live: files removed (in a dry run, counted) and their bytes. */
  public void removed(long files, long bytes) {
    filesRemoved.addAndGet(files);
    bytesFreed.addAndGet(bytes);
  }

  /** Reduced at a stage's end: at least this many manifests were read. */
  public void settleManifestsRead(long total) {
    manifestsRead.accumulateAndGet(total, Math::max);
  }

  /** Reduced at a stage's end: at least this many files were listed. */
  public void settleFilesListed(long total) {
    filesListed.accumulateAndGet(total, Math::max);
  }

  /**
   * Reduced after a sweep: the run's removal counters so far. Candidates are at least the files
   * removed, failed or deferred by {@code max_deletes}, for an engine that decides inside one job
   * and never counted them live.
   */
  public void settleRemoved(CleanupCounters counters) {
    filesRemoved.accumulateAndGet(counters.filesRemoved(), Math::max);
    bytesFreed.accumulateAndGet(counters.bytesRemoved(), Math::max);
    candidates.accumulateAndGet(counters.filesRemoved() + counters.failedDeletes() + counters.deferredDeletes(), Math::max);
  }

  /** The counts now, consistent enough for display (each count is read once, atomically). */
  public ProgressSnapshot snapshot() {
    long now = nanoTime.getAsLong();
    return new ProgressSnapshot(
        dataset,
        stage,
        work,
        manifestsRead.get(),
        manifestsToRead.get(),
        filesListed.get(),
        candidates.get(),
        filesRemoved.get(),
        bytesFreed.get(),
        Duration.ofNanos(now - startNanos),
        Duration.ofNanos(now - stageStartNanos));
  }
}
