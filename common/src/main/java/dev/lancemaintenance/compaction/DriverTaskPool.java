package dev.lancemaintenance.compaction;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.MaintenanceException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a plan's tasks at most {@code concurrency} at a time from threads of the calling process and
 * hands each result in on the calling thread as soon as it is known, so the committer commits
 * complete groups while other tasks still run. What "running a task" means is the engine's: a
 * rewrite in this JVM (local) or a one-partition Spark job (Spark).
 *
 * <p>On the first task that fails for good, tasks not yet started are cancelled; running ones
 * finish and are handed in, so their groups still commit under {@code partial_progress}; then the
 * failure is thrown.
 */
public final class DriverTaskPool {
  private final String table;
  private final int concurrency;
  private final String threadPrefix;

  /**
   * @param table the table, redacted, for messages
   * @param concurrency tasks running at once
   * @param threadPrefix names the pool's daemon threads, e.g. {@code lance-compact}
   */
  public DriverTaskPool(String table, int concurrency, String threadPrefix) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be > 0: " + concurrency);
    }
    this.table = table;
    this.concurrency = concurrency;
    this.threadPrefix = threadPrefix;
  }

  public void run(List<PlannedTask> tasks, Function<PlannedTask, RewrittenTask> runTask, Consumer<RewrittenTask> onRewritten) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(concurrency, tasks.size())), DaemonThreads.named(threadPrefix));
    try {
      CompletionService<RewrittenTask> completion = new ExecutorCompletionService<>(pool);
      List<Future<RewrittenTask>> futures = new ArrayList<>();
      for (PlannedTask task : tasks) {
        futures.add(completion.submit(() -> runTask.apply(task)));
      }
      RuntimeException failure = null;
      for (int outstanding = futures.size(); outstanding > 0; outstanding--) {
        Future<RewrittenTask> finished = take(completion);
        if (finished.isCancelled()) {
          continue;
        }
        try {
          onRewritten.accept(finished.get());
        } catch (ExecutionException e) {
          if (failure == null) {
            failure = asRuntime(e.getCause());
            // Give up: queued tasks do not run (they still pass through the completion queue, as
            // cancelled); running ones finish and still commit their groups.
            futures.forEach(future -> future.cancel(false));
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new MaintenanceException("Interrupted while compacting " + table, e);
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private Future<RewrittenTask> take(CompletionService<RewrittenTask> completion) {
    try {
      return completion.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MaintenanceException("Interrupted while compacting " + table, e);
    }
  }

  private static RuntimeException asRuntime(Throwable cause) {
    return cause instanceof RuntimeException runtime ? runtime : new MaintenanceException(cause.toString(), cause);
  }
}
