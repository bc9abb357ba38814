package dev.lancemaintenance.cleanup;

import java.io.Serializable;

/**
 * How a run executes, as opposed to what it removes ({@link CleanupPolicy}).
 *
 * @param mode delete, or only report
 * @param maxConcurrentDeletes delete requests in flight at once
 * @param deleteRateLimit file deletes per second across the run, 0 for unlimited
 * @param maxDeletes file deletes (attempted, manifests included) the run stops after, {@link #NO_CAP}
 *     for no cap
 */
public record CleanupSettings(CleanupMode mode, int maxConcurrentDeletes, long deleteRateLimit, long maxDeletes)
    implements Serializable {
  /** {@link #maxDeletes} when the run deletes everything it decides. */
  public static final long NO_CAP = Long.MAX_VALUE;

  public static final int DEFAULT_MAX_CONCURRENT_DELETES = 8;

  public static final CleanupSettings DEFAULT =
      new CleanupSettings(CleanupMode.EXECUTE, DEFAULT_MAX_CONCURRENT_DELETES, 0, NO_CAP);

  public CleanupSettings {
    if (maxConcurrentDeletes < 1) {
      throw new IllegalArgumentException("max_concurrent_deletes must be > 0: " + maxConcurrentDeletes);
    }
    if (deleteRateLimit < 0) {
      throw new IllegalArgumentException("delete_rate_limit must be >= 0: " + deleteRateLimit);
    }
    if (maxDeletes < 1) {
      throw new IllegalArgumentException("max_deletes must be > 0: " + maxDeletes);
    }
  }

  public CleanupSettings withMode(CleanupMode newMode) {
    return new CleanupSettings(newMode, maxConcurrentDeletes, deleteRateLimit, maxDeletes);
  }

  public CleanupSettings withMaxConcurrentDeletes(int value) {
    return new CleanupSettings(mode, value, deleteRateLimit, maxDeletes);
  }

  public CleanupSettings withDeleteRateLimit(long value) {
    return new CleanupSettings(mode, maxConcurrentDeletes, value, maxDeletes);
  }

  public CleanupSettings withMaxDeletes(long value) {
    return new CleanupSettings(mode, maxConcurrentDeletes, deleteRateLimit, value);
  }

  /** Whether {@code max_deletes} caps the run. */
  public boolean capped() {
    return maxDeletes != NO_CAP;
  }
}
