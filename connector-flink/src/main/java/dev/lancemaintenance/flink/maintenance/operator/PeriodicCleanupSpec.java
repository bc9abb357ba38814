package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * What periodic maintenance of one table runs, and when.
 *
 * @param table the table
 * @param storage its store's Hadoop configuration
 * @param interval run when this much processing time passed since the last run ({@link Duration#ZERO}: never by time)
 * @param newVersions run when this many versions were committed since the last run (0: never by versions)
 * @param olderThan each run removes versions older than this, as {@code older_than}
 * @param lease how long a run may hold the table's lock; longer than any run
 */
public record PeriodicCleanupSpec(
    TableLocation table, StorageConf storage, Duration interval, long newVersions, Duration olderThan, Duration lease)
    implements Serializable {
  public PeriodicCleanupSpec {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(storage, "storage");
    Objects.requireNonNull(olderThan, "olderThan");
    if (interval.isNegative() || newVersions < 0 || (interval.isZero() && newVersions == 0)) {
      throw new IllegalArgumentException(
          "Periodic cleanup of " + table + " needs a positive interval or version count: " + interval + ", " + newVersions);
    }
    if (lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lock lease must be positive: " + lease);
    }
  }

  /** Whether a run is due at {@code nowMillis} with {@code latestVersion} committed, after {@code last}. */
  boolean due(LastRun last, long nowMillis, long latestVersion) {
    if (last == null) {
      return true;
    }
    boolean byTime = !interval.isZero() && nowMillis - last.startedMillis() >= interval.toMillis();
    boolean byVersions = newVersions > 0 && latestVersion - last.version() >= newVersions;
    return byTime || byVersions;
  }
}
