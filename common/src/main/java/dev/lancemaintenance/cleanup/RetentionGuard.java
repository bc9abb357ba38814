package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.MaintenanceException;
import java.time.Duration;
import java.time.Instant;

/**
 * The retention guard of {@code delete_unverified}, as Delta's {@code retentionDurationCheck} and
 * Iceberg's 24-hour orphan-file guard: a write in progress has data files that no manifest names
 * until it commits, and Lance's own rule protects only files newer than the earliest kept version,
 * so deleting unreferenced files with a short window can delete a writer's files under it. Such a
 * run is refused unless the user lifts the guard explicitly. Version pruning alone is never
 * refused ({@code older_than => '0s'} stays valid, as LanceDB documents it).
 */
public final class RetentionGuard {
  private RetentionGuard() {}

  /** Refuses {@code policy} on {@code table} when it deletes unverified files with a window below the guard. */
  public static void check(String table, CleanupPolicy policy, Instant now, boolean allowShortRetention) {
    if (!policy.deleteUnverified() || allowShortRetention || policy.beforeTimestamp().isEmpty()) {
      return;
    }
    Duration guard = policy.unverifiedGuard();
    Instant cutoff = policy.beforeTimestamp().get();
    if (!cutoff.isAfter(now.minus(guard))) {
      return;
    }
    throw new MaintenanceException(
        "Refusing delete_unverified on " + table + " with a window shorter than the retention guard of "
            + describe(guard) + " (cut-off " + cutoff + "): unreferenced files that young may belong to a write"
            + " that has not committed yet. If nothing writes to the table, say so explicitly: --allow-short-retention"
            + " (SQL: allow_short_retention => true; Java: .allowShortRetention(true); Spark session:"
            + " spark.lance.cleanup.retentionCheck=false)");
  }

  private static String describe(Duration guard) {
    return guard.toHours() % 24 == 0 && guard.toDays() > 0 ? guard.toDays() + " day(s)" : guard.toString();
  }
}
