package dev.lancemaintenance.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Latches for tests that hold one request of a run until another happened. */
public final class Latches {
  private Latches() {}

  /** Waits up to ten seconds for {@code latch}; false when it did not open in time (or the wait was interrupted). */
  public static boolean awaitQuietly(CountDownLatch latch) {
    try {
      return latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
