package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.rules.InventorySnapshot;
import dev.lancemaintenance.format.DatasetRef;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The small facts that decide which versions a cleanup keeps, gathered once on the driver and
 * shipped to every mark task. They grow with the number of tags and branches, never with files.
 *
 * @param table the table, redacted, for messages
 * @param dataset the dataset being cleaned: the main line or a branch
 * @param policy the policy of the run
 * @param latestVersion the newest version the plan saw; it and anything newer are always kept
 * @param tagsByVersion names of the tags on this dataset (branch) by the version they point at
 * @param forkPoints versions of this dataset that a descendant branch was created from; kept so
 *     the branch still reads (Lance 7 keeps them too)
 * @param nowMillis the run's clock, read once on the driver
 * @param inventory the inventory the run lists from, null when it walks the managed directories
 */
public record RetentionFacts(
    String table,
    DatasetRef dataset,
    CleanupPolicy policy,
    long latestVersion,
    Map<Long, List<String>> tagsByVersion,
    Set<Long> forkPoints,
    long nowMillis,
    InventorySnapshot inventory)
    implements Serializable {

  public RetentionFacts {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(policy, "policy");
    tagsByVersion = Map.copyOf(tagsByVersion);
    forkPoints = Set.copyOf(forkPoints);
  }

  /** The facts of a run that walks the managed directories. */
  public RetentionFacts(
      String table,
      DatasetRef dataset,
      CleanupPolicy policy,
      long latestVersion,
      Map<Long, List<String>> tagsByVersion,
      Set<Long> forkPoints,
      long nowMillis) {
    this(table, dataset, policy, latestVersion, tagsByVersion, forkPoints, nowMillis, null);
  }

  /**
   * Whether the listing must show the files a retained version committed at {@code
   * timestampNanos} references: always for a walk of the directories; from an inventory, only for
   * versions committed before it was taken ({@link InventorySnapshot#mustList}).
   */
  public boolean listingMustShowFilesOf(long timestampNanos) {
    return inventory == null || inventory.mustList(timestampNanos);
  }

  /** The table, and the inventory when the run lists from one: for the refusal over missing files. */
  public String describeListing() {
    return inventory == null ? describe() : describe() + " listed from " + inventory;
  }

  /** Files younger than this (by mtime) and unreferenced are kept unless delete_unverified. */
  public long unverifiedThresholdMillis() {
    return nowMillis - CleanupPolicy.UNVERIFIED_THRESHOLD.toMillis();
  }

  /** With delete_unverified, unreferenced files modified at or after this are kept (the retention guard). */
  public long guardThresholdMillis() {
    return nowMillis - policy.unverifiedGuard().toMillis();
  }

  /** The table and, for a branch, the branch, for messages: {@code branch b of s3a://t}. */
  public String describe() {
    return dataset.describe(table);
  }

  /** How one version of this table fares under the policy. */
  public VersionRetention classify(long version, long timestampNanos) {
    boolean latest = version >= latestVersion;
    boolean tagged = tagsByVersion.containsKey(version);
    boolean qualifies = policy.qualifies(version, timestampNanos);
    if (latest || !qualifies) {
      return VersionRetention.RETAINED;
    }
    if (tagged) {
      return VersionRetention.TAGGED_BUT_OLD;
    }
    if (forkPoints.contains(version)) {
      return VersionRetention.RETAINED_FORK_POINT;
    }
    return VersionRetention.EXPIRED;
  }
}
