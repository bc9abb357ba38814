package dev.lancemaintenance.local;

import dev.lancemaintenance.compaction.CompactionEngine;
import dev.lancemaintenance.compaction.CompactionTasks;
import dev.lancemaintenance.compaction.DriverTaskPool;
import dev.lancemaintenance.compaction.RetryingWorker;
import dev.lancemaintenance.compaction.RewrittenTask;
import java.util.function.Consumer;

/**
 * The reference compaction engine: runs the tasks on a pool of {@code max_concurrent_tasks}
 * threads in this JVM; {@link dev.lancemaintenance.compaction.EngineCompactAction} commits on the
 * calling thread as groups complete.
 *
 * <p>A failed task is run once more before the run gives up (its first attempt's files are simply
 * abandoned, unreferenced). On giving up, tasks not yet started are cancelled, running ones finish
 * and are handed in, so complete groups still commit under {@code partial_progress}.
 */
public final class LocalCompactionEngine implements CompactionEngine {
  /** A task runs at most this often: once, and one retry. */
  static final int MAX_ATTEMPTS = 2;

  @Override
  public void runTasks(CompactionTasks tasks, Consumer<RewrittenTask> onRewritten) {
    RetryingWorker worker = new RetryingWorker(tasks.worker(), MAX_ATTEMPTS, tasks.tableName());
    new DriverTaskPool(tasks.tableName(), tasks.maxConcurrentTasks(), "lance-compact")
        .run(tasks.plan().tasks(), worker::rewrite, onRewritten);
  }
}
