package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.rules.RetainLast;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.Manifest;
import dev.lancemaintenance.format.ManifestLocation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cleanup policy a dataset asks for in its own config ({@code lance.auto_cleanup.*} in the
 * latest manifest), as Lance 7 builds it when {@code clean_referenced_branches} cascades into a
 * branch ({@code build_cleanup_policy}, then {@code cleanup_cascade_branch}):
 *
 * <ul>
 *   <li>{@code interval} (unsigned integer) must be present, else the branch is not cleaned at all;
 *       when it is not 0 and the latest version is not a multiple of it, neither;
 *   <li>{@code older_than} (humantime, e.g. {@code 14days}) sets {@code before_timestamp = now -
 *       older_than}; without it there is no time bound;
 *   <li>{@code retain_versions} N sets {@code before_version} to the version N from the newest
 *       (the oldest version when there are at most N);
 *   <li>{@code delete_unverified} and {@code error_if_tagged_old_versions} are off, and the cascade
 *       goes no further ({@code referenced_branch} is overridden).
 * </ul>
 *
 * A value that does not parse fails the whole run, as in Lance.
 */
public final class AutoCleanupConfig {
  public static final String INTERVAL = "lance.auto_cleanup.interval";
  public static final String OLDER_THAN = "lance.auto_cleanup.older_than";
  public static final String RETAIN_VERSIONS = "lance.auto_cleanup.retain_versions";

  private AutoCleanupConfig() {}

  /**
   * The policy for cascading into a dataset, or empty when its config does not ask for cleanup.
   *
   * @param latest the dataset's latest manifest (the one a checkout of the branch opens)
   * @param versions every version of the dataset, ascending
   * @param now the run's clock
   * @param described the table and branch as messages name them ({@link DatasetRef#describe})
   */
  public static Optional<CleanupPolicy> cascadePolicy(
      Manifest latest, List<ManifestLocation> versions, Instant now, String described) {
    Map<String, String> config = latest.config();
    String interval = config.get(INTERVAL);
    if (interval == null) {
      return Optional.empty();
    }
    long every = parseUnsigned(described, INTERVAL, interval);
    if (every != 0 && Long.remainderUnsigned(latest.version(), every) != 0) {
      return Optional.empty();
    }
    CleanupPolicy.Builder policy =
        CleanupPolicy.builder().deleteUnverified(false).errorIfTaggedOldVersions(false).cleanReferencedBranches(false);
    String olderThan = config.get(OLDER_THAN);
    if (olderThan != null) {
      policy.beforeTimestamp(minusClamped(now, parseDuration(described, olderThan)));
    }
    String retain = config.get(RETAIN_VERSIONS);
    if (retain != null) {
      policy.beforeVersion(retainedFrom(versions, parseUnsigned(described, RETAIN_VERSIONS, retain), described));
    }
    return Optional.of(policy.build());
  }

  /** Lance's {@code retain_n_versions}: the version at index {@code count - n}, or the oldest one. */
  static long retainedFrom(List<ManifestLocation> versions, long keep, String described) {
    if (keep == 0) {
      // Lance indexes past the end of its version list here and fails; so do we, with a message.
      throw new MaintenanceException("Cannot clean up " + described + ": " + RETAIN_VERSIONS + " is 0");
    }
    return RetainLast.oldestKept(versions.stream().map(ManifestLocation::version).toList(), keep);
  }

  /** {@code now - olderThan}; a window reaching before 1970 keeps everything, as in Lance. */
  private static Instant minusClamped(Instant now, Duration olderThan) {
    Duration sinceEpoch = Duration.between(Instant.EPOCH, now);
    return olderThan.compareTo(sinceEpoch) >= 0 ? Instant.EPOCH : now.minus(olderThan);
  }

  private static long parseUnsigned(String described, String key, String value) {
    try {
      return Long.parseUnsignedLong(value);
    } catch (NumberFormatException e) {
      throw new MaintenanceException(
          "Cannot clean up " + described + ": " + key + " is not an unsigned integer: \"" + value + "\"", e);
    }
  }

  private static Duration parseDuration(String described, String value) {
    try {
      return HumanDuration.parse(value);
    } catch (IllegalArgumentException e) {
      throw new MaintenanceException("Cannot clean up " + described + ": " + OLDER_THAN + " is not a duration: "
          + e.getMessage(), e);
    }
  }
}
