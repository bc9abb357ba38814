package dev.lancemaintenance.cleanup.stage;

import java.io.Serializable;

/**
 * The run-wide facts the decision needs, known once every mark task has reported.
 *
 * @param listingCutoffMillis files modified in this millisecond or later are never candidates:
 *     the millisecond of the earliest retained manifest's timestamp. Anything newer than that
 *     manifest may belong to a write in flight (Lance applies the same cut-off, at the store's
 *     precision). Listings give milliseconds while the timestamp has nanoseconds, so a file of the
 *     same millisecond cannot be ordered against it and is kept.
 * @param unverifiedThresholdMillis unreferenced files modified at or after this instant are young
 *     (now minus 7 days)
 * @param deleteUnverified the policy's {@code delete_unverified}
 */
public record DecisionContext(long listingCutoffMillis, long unverifiedThresholdMillis, boolean deleteUnverified)
    implements Serializable {

  /** The cut-off for a manifest timestamp in nanoseconds: the millisecond it falls in. */
  public static long cutoffMillisOf(long earliestRetainedNanos) {
    return Math.floorDiv(earliestRetainedNanos, 1_000_000L);
  }
}
