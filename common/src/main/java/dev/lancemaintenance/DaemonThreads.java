package dev.lancemaintenance;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadFactory;
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
   * Runs {@code work} on a daemon thread of its own: for a few requests on the driver that only wait
   * on the store and need not hold up the driver's next step (a run's refs, its start record). Take
   * the result with {@link #join}.
   */
  public static <T> CompletableFuture<T> beside(String name, Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, runnable -> named(name).newThread(runnable).start());
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
