package dev.lancemaintenance.cleanup.stage;

import java.io.Serializable;

/**
 * The run-wide facts the decision needs, known once every mark task has reported.
 *
 * @param listingCutoffMillis files modified after this instant are never candidates: it is the
 *     timestamp of the earliest retained manifest, and anything newer may belong to a write in
 *     flight (Lance applies the same cut-off)
 * @param unverifiedThresholdMillis unreferenced files modified at or after this instant are young
 *     (now minus 7 days)
 * @param deleteUnverified the policy's {@code delete_unverified}
 */
public record DecisionContext(long listingCutoffMillis, long unverifiedThresholdMillis, boolean deleteUnverified)
    implements Serializable {

  /** The cut-off in milliseconds for a manifest timestamp in nanoseconds; a file at the same millisecond is listed. */
  public static long cutoffMillisOf(long earliestRetainedNanos) {
    return Math.floorDiv(earliestRetainedNanos, 1_000_000L);
  }
}
