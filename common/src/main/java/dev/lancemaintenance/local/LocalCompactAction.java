package dev.lancemaintenance.local;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.compaction.BaseCompactAction;
import dev.lancemaintenance.compaction.CompactionPlan;
import dev.lancemaintenance.compaction.CompactionPolicy;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.CompactionWorker;
import dev.lancemaintenance.compaction.DriverTaskPool;
import dev.lancemaintenance.compaction.PlannedTask;
import dev.lancemaintenance.compaction.RewrittenTask;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reference compaction engine: runs the tasks on a pool of {@code max_concurrent_tasks}
 * threads in this JVM and commits on the calling thread as groups complete.
 *
 * <p>A failed task is run once more before the run gives up (its first attempt's files are simply
 * abandoned, unreferenced). On giving up, tasks not yet started are cancelled, running ones finish
 * and are handed in, so complete groups still commit under {@code partial_progress}.
 */
public final class LocalCompactAction extends BaseCompactAction {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCompactAction.class);

  /** A task runs at most this often: once, and one retry. */
  static final int MAX_ATTEMPTS = 2;

  private final CompactionWorker worker;

  public LocalCompactAction(CompactionTable table) {
    super(table);
    this.worker = worker();
  }

  /** With a worker of the caller's (one that counts, throttles or, in tests, fails). */
  public LocalCompactAction(CompactionTable table, CompactionWorker worker) {
    super(table);
    this.worker = Objects.requireNonNull(worker, "worker");
  }

  @Override
  protected void runTasks(CompactionPlan plan, CompactionPolicy policy, Consumer<RewrittenTask> onRewritten) {
    new DriverTaskPool(table().toString(), policy.maxConcurrentTasks(), "lance-compact")
        .run(plan.tasks(), this::rewriteWithRetry, onRewritten);
  }

  private RewrittenTask rewriteWithRetry(PlannedTask task) {
    RuntimeException first = null;
    for (int attempt = 1; ; attempt++) {
      try {
        return worker.rewrite(task);
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
        if (attempt >= MAX_ATTEMPTS) {
          throw new MaintenanceException(
              task + " failed " + attempt + " times, last with: " + e.getMessage(), first);
        }
        LOG.warn("lance compact {} [2/3 rewrite]: {} failed, running it again: {}", table(), task, e.getMessage());
      }
    }
  }
}
