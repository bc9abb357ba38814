package dev.lancemaintenance.local;

import dev.lancemaintenance.compaction.BaseCompactAction;
import dev.lancemaintenance.compaction.CompactionPlan;
import dev.lancemaintenance.compaction.CompactionPolicy;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.CompactionTaskRunner;
import dev.lancemaintenance.compaction.CompactionWorker;
import dev.lancemaintenance.compaction.DriverTaskPool;
import dev.lancemaintenance.compaction.RetryingWorker;
import dev.lancemaintenance.compaction.RewrittenTask;
import java.util.function.Consumer;

/**
 * The reference compaction engine: runs the tasks on a pool of {@code max_concurrent_tasks}
 * threads in this JVM and commits on the calling thread as groups complete.
 *
 * <p>A failed task is run once more before the run gives up (its first attempt's files are simply
 * abandoned, unreferenced). On giving up, tasks not yet started are cancelled, running ones finish
 * and are handed in, so complete groups still commit under {@code partial_progress}.
 */
public final class LocalCompactAction extends BaseCompactAction {
  /** A task runs at most this often: once, and one retry. */
  static final int MAX_ATTEMPTS = 2;

  public LocalCompactAction(CompactionTable table) {
    this(table, new CompactionTaskRunner(table));
  }

  /** With a worker of the caller's (one that counts, throttles or, in tests, fails), retried once here. */
  public LocalCompactAction(CompactionTable table, CompactionWorker worker) {
    super(table, new RetryingWorker(worker, MAX_ATTEMPTS, table.toString()));
  }

  @Override
  protected void runTasks(CompactionPlan plan, CompactionPolicy policy, Consumer<RewrittenTask> onRewritten) {
    new DriverTaskPool(table().toString(), policy.maxConcurrentTasks(), "lance-compact")
        .run(plan.tasks(), worker()::rewrite, onRewritten);
  }
}
