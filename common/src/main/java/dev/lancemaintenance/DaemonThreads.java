package dev.lancemaintenance;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Thread factories for the pools the engines run on the driver or in one JVM: daemon threads, so a
 * pool left behind never keeps the JVM (or a CLI run) alive, named {@code <prefix>-<n>} for thread
 * dumps.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  public static ThreadFactory named(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * The threads {@link #beside} runs on: a thread for every task at once (a task never waits for a
   * thread, so a task that waits for another, as the dead-run lookup waits for the start record,
   * cannot wait for a thread that task would need), and an idle one reused for the next task. A
   * daily run hands some ten tasks to threads of their own (the plan's refs and hint, the start
   * record, the ledger read-ahead, the work before the lease's release, the prune); started anew,
   * each cost its caller a thread start in the row, 0.2-1.5 ms on two busy cores (docs/benchmarks.md,
   * "Where the snapshot path's daily run goes"). Kept idle a minute, so that a JVM that runs every
   * few seconds keeps its threads and one that ran once lets them go. What a new thread took from its
   * caller, the task takes as before: the caller's context class loader (Spark's and Flink's user
   * code loaders, through which Hadoop loads file systems) is set for the task and restored after,
   * and the thread carries the task's name while it runs. The tasks pass nothing to one another
   * through their thread: each is store requests and their decoding, and the executor clears an
   * interrupt left over from the task before.
   */
  private static final ExecutorService BESIDE = new ThreadPoolExecutor(
      0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), named("lance-beside"));

  /**
   * Runs {@code work} on a daemon thread of its own while it runs, named {@code name} for thread
   * dumps: for a few requests on the driver that only wait on the store and need not hold up the
   * driver's next step (a run's refs, its start record). The thread is an idle one of an earlier
   * task's when there is one ({@link #BESIDE}). Take the result with {@link #join}.
   */
  public static <T> CompletableFuture<T> beside(String name, Supplier<T> work) {
    ClassLoader callersLoader = Thread.currentThread().getContextClassLoader();
    return CompletableFuture.supplyAsync(() -> {
      Thread thread = Thread.currentThread();
      String idleName = thread.getName();
      ClassLoader idleLoader = thread.getContextClassLoader();
      thread.setName(name);
      thread.setContextClassLoader(callersLoader);
      try {
        return work.get();
      } finally {
        thread.setContextClassLoader(idleLoader);
        thread.setName(idleName);
      }
    }, BESIDE);
  }

  /** The result of {@link #beside}'s work, or the exception it threw, rethrown as it was. */
  public static <T> T join(CompletableFuture<T> work) {
    try {
      return work.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}
