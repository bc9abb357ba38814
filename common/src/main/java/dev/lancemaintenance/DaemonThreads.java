package dev.lancemaintenance;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

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
}
