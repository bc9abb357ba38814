package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupProgress;
import dev.lancemaintenance.cleanup.CleanupSettings;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.stage.DeleteBudget;
import dev.lancemaintenance.cleanup.stage.DeletePacer;
import dev.lancemaintenance.cleanup.stage.SweepBatch;
import dev.lancemaintenance.cleanup.stage.TokenBucketPacer;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * The local engine's deletes, for the sweep of the decided files and the release of the expired
 * manifests alike: a stage's files are read on the run's thread and deleted in full batches of up
 * to {@value SweepBatch#FILES_PER_SWEEP} files on the run's pool, at most {@code
 * max_concurrent_deletes} batches in flight, paced by {@code delete_rate_limit} across both stages;
 * in a dry run they are only counted. A file over the stage's {@code max_deletes} budget is only
 * counted as deferred. With {@code record_files}, each stage writes one part; a stage that fails
 * leaves it without its end.
 *
 * <p>Memory: the batch being filled and those in flight, {@code max_concurrent_deletes} + 1 of up
 * to {@value SweepBatch#FILES_PER_SWEEP} files.
 */
final class PooledSweep {
  /** The files of one stage, each handed to the sweep in turn on the calling thread. */
  @FunctionalInterface
  interface Files {
    void forEach(Consumer<CandidateFile> each);
  }

  private final TableStorage storage;
  private final RunPool pool;
  private final CleanupSettings settings;
  private final CleanupProgress progress;
  private final Consumer<CandidateFile> removedFileListener;
  private final Optional<RecordedFiles> recordedFiles;
  /** Checked before each batch: no delete once the run's lease is lost. */
  private final Runnable ensureLeaseHeld;
  private final Semaphore deleteSlots;
  private final DeletePacer pacer;

  PooledSweep(TableStorage storage, RunPool pool, CleanupSettings settings, CleanupProgress progress,
      Consumer<CandidateFile> removedFileListener, Optional<RecordedFiles> recordedFiles, Runnable ensureLeaseHeld) {
    this.storage = storage;
    this.pool = pool;
    this.settings = settings;
    this.progress = progress;
    this.removedFileListener = removedFileListener;
    this.recordedFiles = recordedFiles;
    this.ensureLeaseHeld = ensureLeaseHeld;
    this.deleteSlots = new Semaphore(settings.maxConcurrentDeletes());
    this.pacer = new TokenBucketPacer(settings.deleteRateLimit());
  }

  /**
   * Deletes (in a dry run, counts) at most {@code budget} of {@code files}, for {@code stage}, and
   * returns the stage's counters once every batch ended.
   *
   * <p>A cancelled run (its thread interrupted by whatever runs it: an application, a notebook or
   * an engine's task that cancels it) hands no further batch to the pool ({@link BackgroundBatches#accept}); the batches already
   * handed over end before the stage fails, so that what they deleted is counted in the run's
   * progress, which its failed run record shows, and in its recorded part before the part is closed.
   * The stage then fails as an interrupted wait for a task does, and the release, which follows
   * only a sweep that ended, does not start: the expired manifests stay for the next run.
   */
  CleanupCounters sweep(CleanupStage stage, long budget, Files files) {
    try (Sweeper sweeper = new Sweeper(new DeleteBudget(budget), stage)) {
      BackgroundBatches batches = new BackgroundBatches(sweeper);
      try {
        files.forEach(file -> sweeper.add(file, batches));
        return sweeper.finish(batches);
      } catch (RuntimeException | Error e) {
        if (Thread.currentThread().isInterrupted()) {
          batches.letHandedOverEnd(e);
        }
        throw e;
      }
    }
  }

  /** Listeners see one file at a time, though partitions are decided on several threads. */
  private synchronized void announce(CandidateFile file) {
    removedFileListener.accept(file);
  }

  /**
   * Collects the files a stage deletes (read on the run's thread) and deletes them in full
   * batches, or only counts them in a dry run; a file over the run's {@code max_deletes} budget is
   * only counted as deferred. Batches are cut under the lock and deleted outside it on the pool
   * ({@link BackgroundBatches}), at most {@code max_concurrent_deletes} at a time. With {@code
   * record_files}, the stage writes one part; a sweep that fails leaves it without its end.
   */
  private final class Sweeper implements AutoCloseable {
    private final DeleteBudget budget;
    private final RecordedFiles.Part record;
    private List<CandidateFile> buffer = new ArrayList<>();
    private CleanupCounters counters = CleanupCounters.ZERO;

    Sweeper(DeleteBudget budget, CleanupStage stage) {
      this.budget = budget;
      this.record = recordedFiles.map(files -> files.part(storage, stage.name().toLowerCase(Locale.ROOT), 0, 0))
          .orElseGet(RecordedFiles.Part::none);
    }

    /** Adds a file; a full batch goes to {@code deleteBatch}. */
    void add(CandidateFile file, Consumer<List<CandidateFile>> deleteBatch) {
      if (!budget.tryTake()) {
        synchronized (this) {
          counters = counters.deferred(1);
        }
        return;
      }
      announce(file);
      List<CandidateFile> full = null;
      synchronized (this) {
        if (settings.mode() == CleanupMode.DRY_RUN) {
          counters = counters.record(file);
          progress.removed(1, file.bytes());
          return;
        }
        buffer.add(file);
        if (buffer.size() >= SweepBatch.FILES_PER_SWEEP) {
          full = buffer;
          buffer = new ArrayList<>();
        }
      }
      if (full != null) {
        deleteBatch.accept(full);
      }
    }

    private void delete(List<CandidateFile> batch) {
      RunPool.stopIfInterrupted();
      ensureLeaseHeld.run();
      deleteSlots.acquireUninterruptibly();
      try {
        CleanupCounters deleted = new SweepBatch(storage, pacer).sweep(batch, record::add);
        progress.removed(deleted.filesRemoved(), deleted.bytesRemoved());
        synchronized (this) {
          counters = counters.plus(deleted);
        }
      } finally {
        deleteSlots.release();
      }
    }

    /**
     * Deletes what is left, the last partial batch beside the full ones {@code batches} holds in
     * flight, and waits for all of them; call once every task that adds has finished.
     */
    CleanupCounters finish(BackgroundBatches batches) {
      List<CandidateFile> rest;
      synchronized (this) {
        rest = buffer;
        buffer = new ArrayList<>();
      }
      if (!rest.isEmpty()) {
        batches.accept(rest);
      }
      batches.awaitAll();
      record.finish();
      synchronized (this) {
        return counters;
      }
    }

    /** Closes the record: after {@link #finish}, nothing more; after a failure, without its end. */
    @Override
    public void close() {
      record.close();
    }
  }

  /**
   * Deletes the full batches of one producing thread on the pool, at most {@code
   * max_concurrent_deletes} at a time; the producer waits for a slot, so that no more batches
   * than that are held at once, and stops when its thread is interrupted (the run is cancelled).
   */
  private final class BackgroundBatches implements Consumer<List<CandidateFile>> {
    private final Sweeper sweeper;
    private final Semaphore inFlight = new Semaphore(settings.maxConcurrentDeletes());
    private final List<Future<?>> running = new ArrayList<>();

    BackgroundBatches(Sweeper sweeper) {
      this.sweeper = sweeper;
    }

    @Override
    public void accept(List<CandidateFile> batch) {
      // Interruptibly, and at once when the thread is interrupted already: a cancelled run hands
      // over no further batch (before, it waited for each slot and was stopped only by its wait at
      // the stage's end, once every decided batch had been handed over).
      try {
        inFlight.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw RunPool.interrupted(e);
      }
      awaitFinished();
      running.add(pool.submit(() -> {
        try {
          sweeper.delete(batch);
        } finally {
          inFlight.release();
        }
      }));
    }

    /** Rethrows a finished batch's failure at once and forgets the finished ones. */
    private void awaitFinished() {
      for (Iterator<Future<?>> it = running.iterator(); it.hasNext(); ) {
        Future<?> batch = it.next();
        if (batch.isDone()) {
          RunPool.await(batch);
          it.remove();
        }
      }
    }

    void awaitAll() {
      running.forEach(RunPool::await);
      running.clear();
    }

    /**
     * Waits, whatever the thread's interrupt, until every batch handed over ended, and gives the
     * thread its interrupt back; a second interrupt while it waits ends the wait. For a stage that
     * fails ({@code stageFailure}) because its run was cancelled: no batch outlives it, and a batch
     * that failed adds its failure to the stage's.
     */
    void letHandedOverEnd(Throwable stageFailure) {
      Thread.interrupted();
      try {
        for (Future<?> batch : running) {
          try {
            batch.get();
          } catch (ExecutionException failed) {
            if (failed.getCause() != stageFailure) {
              stageFailure.addSuppressed(failed.getCause());
            }
          }
        }
      } catch (InterruptedException again) {
        stageFailure.addSuppressed(again);
      } finally {
        Thread.currentThread().interrupt();
      }
    }
  }
}
