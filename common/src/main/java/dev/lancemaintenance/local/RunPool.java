package dev.lancemaintenance.local;

import dev.lancemaintenance.DaemonThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads of one local run: every mark, list and delete task and each decide task runs here,
 * and the run's thread waits for them. A task's failure is rethrown on the thread that waits for
 * it; closing the pool interrupts the tasks still running, which check between manifests, listed
 * files and delete batches ({@link #stopIfInterrupted}), and waits for them to end.
 */
final class RunPool implements AutoCloseable {
  /** The engine's logger: the pool's warning is one of the run's lines. */
  private static final Logger LOG = LoggerFactory.getLogger(LocalCleanupAction.class);
  private static final long WAIT_SECONDS = 60;

  private final ExecutorService pool;

  /**
   * The run's pool, its threads started beside the driver's next step (the plan), not by the first
   * tasks submitted: a daily run's first submit came after the mark, and the thread starts of the
   * listing's tasks were in its row (2-4.5 ms on two busy cores, docs/benchmarks.md, "Where the
   * snapshot path's daily run goes"). Nothing else changes: the same fixed number of threads, made
   * by the same factory (the starting thread carries the caller's context class loader, as the
   * driver did: {@link DaemonThreads#beside}), stopped with the run; a pool already stopped when the
   * start comes (a run that failed in its plan) starts none ({@link ThreadPoolExecutor#prestartAllCoreThreads}
   * adds no worker after a shutdown), and a task submitted first starts its own thread as before.
   */
  RunPool(int threads) {
    ThreadPoolExecutor started = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(), DaemonThreads.named("lance-cleanup"));
    DaemonThreads.beside("lance-cleanup-start", started::prestartAllCoreThreads);
    this.pool = started;
  }

  <R> Future<R> submit(Callable<R> task) {
    return pool.submit(task);
  }

  Future<?> submit(Runnable task) {
    return pool.submit(task);
  }

  /** Runs {@code task} on every input on the pool and combines the results in input order. */
  <T, R> R runAll(List<T> inputs, Function<T, R> task, BinaryOperator<R> combine, R zero) {
    return awaitAll(submitAll(inputs, task), combine, zero);
  }

  <T, R> List<Future<R>> submitAll(List<T> inputs, Function<T, R> task) {
    List<Future<R>> futures = new ArrayList<>(inputs.size());
    for (T input : inputs) {
      futures.add(pool.submit(() -> task.apply(input)));
    }
    return futures;
  }

  static <R> R awaitAll(List<Future<R>> futures, BinaryOperator<R> combine, R zero) {
    R result = zero;
    for (Future<R> future : futures) {
      result = combine.apply(result, await(future));
    }
    return result;
  }

  /** The task's result; its failure rethrown (unchecked as it was), an interrupt of the waiting thread as a failure of the run. */
  static <R> R await(Future<R> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** How a run ends whose thread was interrupted while it waited for its tasks. */
  static IllegalStateException interrupted(InterruptedException e) {
    return new IllegalStateException("Interrupted while cleaning up", e);
  }

  static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> both = new ArrayList<>(a);
    both.addAll(b);
    return both;
  }

  /** Ends a task of a run that is being stopped (another task failed). */
  static void stopIfInterrupted() {
    if (Thread.currentThread().isInterrupted()) {
      throw new CancellationException("cleanup stopped: another task of the run failed");
    }
  }

  /**
   * Stops the pool when the run ends. After a failed task the others are interrupted; they check
   * between manifests, listed files and delete batches, and the run waits for them to end.
   */
  @Override
  public void close() {
    pool.shutdownNow();
    try {
      if (!pool.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("lance cleanup: tasks still running {} s after the run ended", WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
