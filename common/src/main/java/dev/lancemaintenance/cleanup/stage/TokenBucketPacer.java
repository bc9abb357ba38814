package dev.lancemaintenance.cleanup.stage;

/**
 * A {@link DeletePacer} that admits at most {@code filesPerSecond} deletes per second (0 =
 * unlimited) and backs off exponentially (100 ms, 200 ms, 400 ms, ...) between retries. Shared by
 * all tasks of one JVM; a distributed engine gives each task its share of the global rate.
 */
public final class TokenBucketPacer implements DeletePacer {
  private static final long BASE_BACKOFF_MILLIS = 100;

  private final double filesPerSecond;
  private double available;
  private long lastRefillNanos = System.nanoTime();

  public TokenBucketPacer(double filesPerSecond) {
    if (filesPerSecond < 0) {
      throw new IllegalArgumentException("delete rate must be >= 0: " + filesPerSecond);
    }
    this.filesPerSecond = filesPerSecond;
    this.available = filesPerSecond;
  }

  @Override
  public void acquire(int files) {
    if (filesPerSecond == 0) {
      return;
    }
    long waitNanos;
    synchronized (this) {
      refill();
      available -= files;
      waitNanos = available >= 0 ? 0 : (long) (-available / filesPerSecond * 1e9);
    }
    sleepNanos(waitNanos);
  }

  private void refill() {
    long now = System.nanoTime();
    available = Math.min(filesPerSecond, available + (now - lastRefillNanos) / 1e9 * filesPerSecond);
    lastRefillNanos = now;
  }

  @Override
  public void backoff(int attempt) {
    sleepNanos(BASE_BACKOFF_MILLIS * 1_000_000L << Math.min(attempt - 1, 10));
  }

  private static void sleepNanos(long nanos) {
    if (nanos <= 0) {
      return;
    }
    try {
      Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while pacing deletes", e);
    }
  }
}
