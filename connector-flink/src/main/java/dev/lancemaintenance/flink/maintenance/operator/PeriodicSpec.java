package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.compaction.CompactionPolicy;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What periodic maintenance of one table runs, and when. A run is due when any trigger fires, as
 * in Iceberg's Flink table maintenance: time since the last run, versions committed since, or (for
 * compaction and optimize) the fragments Lance's planner would merge now.
 *
 * @param table the table
 * @param storage its store's Hadoop configuration (our listing, reads and deletes)
 * @param sdkOptions the Lance SDK's object-store options (compaction rewrites through the SDK)
 * @param interval run when this much processing time passed since the last run ({@link Duration#ZERO}: never by time)
 * @param newVersions run when this many versions were committed since the last run (0: never by versions)
 * @param fragmentsToCompact run when the compaction planner would merge at least this many
 *     fragments (0: never by fragments)
 * @param olderThan each cleanup removes versions older than this, as {@code older_than}
 * @param cleanupOptions the other cleanup options of each run by SQL name, checked against the
 *     catalogue when the job was built and applied after {@code olderThan} (text, so that it ships)
 * @param compaction how compaction and optimize merge fragments
 * @param lease how long a run may hold the table's lock; longer than any run
 */
public record PeriodicSpec(
    TableLocation table,
    StorageConf storage,
    Map<String, String> sdkOptions,
    Duration interval,
    long newVersions,
    long fragmentsToCompact,
    Duration olderThan,
    Map<String, String> cleanupOptions,
    CompactionPolicy compaction,
    Duration lease)
    implements Serializable {
  public PeriodicSpec {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(storage, "storage");
    sdkOptions = Map.copyOf(sdkOptions);
    Objects.requireNonNull(olderThan, "olderThan");
    cleanupOptions = Map.copyOf(cleanupOptions);
    Objects.requireNonNull(compaction, "compaction");
    if (interval.isNegative() || newVersions < 0 || fragmentsToCompact < 0
        || (interval.isZero() && newVersions == 0 && fragmentsToCompact == 0)) {
      throw new IllegalArgumentException("Periodic maintenance of " + table
          + " needs a positive interval, version count or fragment count: " + interval + ", " + newVersions + ", "
          + fragmentsToCompact);
    }
    if (lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lock lease must be positive: " + lease);
    }
  }

  /**
   * Whether a run is due at {@code nowMillis} with {@code latestVersion} committed, after {@code
   * last}. {@code fragmentsToMerge} is asked only when the cheaper triggers did not fire: it plans a
   * compaction.
   */
  boolean due(LastRun last, long nowMillis, long latestVersion, LongSupplier fragmentsToMerge) {
    boolean scheduled = !interval.isZero() || newVersions > 0;
    boolean byTime = !interval.isZero() && (last == null || nowMillis - last.startedMillis() >= interval.toMillis());
    boolean byVersions = newVersions > 0 && (last == null || latestVersion - last.version() >= newVersions);
    // A first run comes at once when time or versions schedule it; fragments alone wait for their count.
    return scheduled && last == null
        || byTime
        || byVersions
        || fragmentsToCompact > 0 && fragmentsToMerge.getAsLong() >= fragmentsToCompact;
  }
}
