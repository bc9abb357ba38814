package dev.lancemaintenance.cleanup.rules;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * What a listing taken before the run (an S3 Inventory report, a view of file paths) can vouch for,
 * and the rules a cleanup that lists from it follows. The one home of those rules; the planner, the
 * mark stage and the decision read them from here.
 *
 * <p>An inventory can only narrow a cleanup, never widen it:
 *
 * <ol>
 *   <li>Only files it lists are candidates: a file it does not show is never deleted on its word
 *       (the listing stage reads nothing else).
 *   <li>A file modified at or after the moment it was taken is never a candidate ({@link
 *       #listingCutoffMillis}): the inventory cannot know what happened to it since.
 *   <li>A version committed at or after that moment is kept whatever the policy says ({@link
 *       #taken}): files it wrote after the inventory are not in it, so deleting the
 *       version would leave them behind unreferenced, where a later run sees them as unverified.
 *   <li>A file that a version committed before that moment needs was there when the inventory was
 *       taken; if the inventory does not show it, the table is damaged or the inventory covers the
 *       wrong bucket or prefix, and the run refuses before any delete. A file only newer versions need
 *       may be missing from it, and that is no sign of damage ({@link #mustList}).
 * </ol>
 *
 * @param source the inventory, for messages: its manifest's URI or the view's name
 * @param takenMillis when it was taken (S3 Inventory: the manifest's {@code creationTimestamp})
 */
public record InventorySnapshot(String source, long takenMillis) implements Serializable {
  public InventorySnapshot {
    Objects.requireNonNull(source, "source");
  }

  /** Rule 2: the decision's cut-off for file mtimes, given the one the manifests set. */
  public long listingCutoffMillis(long manifestCutoffMillis) {
    return Math.min(manifestCutoffMillis, takenMillis);
  }

  /**
   * Rule 3: the latest {@code before_timestamp} a run listing from this inventory may use; the
   * planner narrows the policy to it ({@code CleanupPolicy.withBeforeTimestampAtMost}).
   */
  public Instant taken() {
    return Instant.ofEpochMilli(takenMillis);
  }

  /**
   * Rule 4: whether the inventory must show the files of a retained version committed at {@code
   * versionTimestampNanos}: only of versions committed strictly before it was taken.
   */
  public boolean mustList(long versionTimestampNanos) {
    return Math.floorDiv(versionTimestampNanos, 1_000_000L) < takenMillis;
  }

  /** For messages and logs: {@code S3 Inventory s3a://... taken at 2026-...}. */
  @Override
  public String toString() {
    return source + " (taken at " + taken() + ")";
  }
}
