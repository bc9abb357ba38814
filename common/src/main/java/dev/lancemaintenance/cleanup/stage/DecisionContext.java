package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.format.DatasetRef;
import java.io.Serializable;
import java.util.Objects;

/**
 * The run-wide facts the decision needs, known once every mark task has reported.
 *
 * @param dataset the dataset being cleaned (the main line or a branch); the per-path rules apply to
 *     paths relative to its directory
 * @param listingCutoffMillis files modified in this millisecond or later are never candidates:
 *     the millisecond of the earliest retained manifest's timestamp. Anything newer than that
 *     manifest may belong to a write in flight (Lance applies the same cut-off, at the store's
 *     precision). Listings give milliseconds while the timestamp has nanoseconds, so a file of the
 *     same millisecond cannot be ordered against it and is kept. In an orphan sweep, which retains
 *     every version, the window's cutoff instead ({@link
 *     dev.lancemaintenance.cleanup.CleanupPolicy#orphanCutoffMillis()}).
 * @param unverifiedThresholdMillis unreferenced files modified at or after this instant are young
 *     (now minus 7 days)
 * @param deleteUnverified the policy's {@code delete_unverified}
 * @param guardThresholdMillis with {@code delete_unverified}, young unreferenced files modified at or
 *     after this instant are still kept (now minus the policy's retention guard)
 */
public record DecisionContext(
    DatasetRef dataset,
    long listingCutoffMillis,
    long unverifiedThresholdMillis,
    boolean deleteUnverified,
    long guardThresholdMillis)
    implements Serializable {

  public DecisionContext {
    Objects.requireNonNull(dataset, "dataset");
  }

  /** The context of a run from its facts and the reduced summary of every mark task. */
  public static DecisionContext of(RetentionFacts facts, MarkSummary summary) {
    long cutoffMillis = facts.policy().orphanCutoffMillis().orElse(cutoffMillisOf(summary.earliestRetainedNanos()));
    return new DecisionContext(
        facts.dataset(),
        facts.inventory() == null ? cutoffMillis : facts.inventory().listingCutoffMillis(cutoffMillis),
        facts.unverifiedThresholdMillis(),
        facts.policy().deleteUnverified(),
        facts.guardThresholdMillis());
  }

  /** The cut-off for a manifest timestamp in nanoseconds: the millisecond it falls in. */
  public static long cutoffMillisOf(long earliestRetainedNanos) {
    return Math.floorDiv(earliestRetainedNanos, 1_000_000L);
  }

  /** The reference key of a file listed in this run's dataset. */
  public String keyOf(String path) {
    return ReferenceKeys.keyOf(dataset, path);
  }
}
