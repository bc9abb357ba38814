package dev.lancemaintenance.cleanup;

import java.io.Serializable;

/**
 * How a run executes, as opposed to what it removes ({@link CleanupPolicy}).
 *
 * @param mode delete, or only report
 * @param maxConcurrentDeletes delete requests in flight at once
 * @param deleteRateLimit file deletes per second across the run, 0 for unlimited
 */
public record CleanupSettings(CleanupMode mode, int maxConcurrentDeletes, long deleteRateLimit)
    implements Serializable {
  public static final int DEFAULT_MAX_CONCURRENT_DELETES = 8;

  public static final CleanupSettings DEFAULT =
      new CleanupSettings(CleanupMode.EXECUTE, DEFAULT_MAX_CONCURRENT_DELETES, 0);

  public CleanupSettings {
    if (maxConcurrentDeletes < 1) {
      throw new IllegalArgumentException("max_concurrent_deletes must be > 0: " + maxConcurrentDeletes);
    }
    if (deleteRateLimit < 0) {
      throw new IllegalArgumentException("delete_rate_limit must be >= 0: " + deleteRateLimit);
    }
  }

  public CleanupSettings withMode(CleanupMode newMode) {
    return new CleanupSettings(newMode, maxConcurrentDeletes, deleteRateLimit);
  }

  public CleanupSettings withMaxConcurrentDeletes(int value) {
    return new CleanupSettings(mode, value, deleteRateLimit);
  }

  public CleanupSettings withDeleteRateLimit(long value) {
    return new CleanupSettings(mode, maxConcurrentDeletes, value);
  }
}
