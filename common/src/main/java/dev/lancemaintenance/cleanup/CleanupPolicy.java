package dev.lancemaintenance.cleanup;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import dev.lancemaintenance.cleanup.rules.RetainLast;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a cleanup removes: Lance's {@code CleanupPolicy}, with its names and defaults.
 *
 * <p>A version is removed when it is older than {@link #beforeTimestamp()} (by the manifest's own
 * timestamp, never the file's mtime) and below {@link #beforeVersion()}, when set; the latest
 * version and tagged versions are never removed. With neither bound set every version but the latest
 * and the tagged ones qualifies, as in Lance. {@link #retainLast()} keeps the N newest versions on top
 * of that: resolved against the listing ({@link #forVersions}), it is one more version bound.
 *
 * @param beforeTimestamp versions whose manifest timestamp is strictly before this instant qualify
 * @param beforeVersion versions strictly below this number qualify
 * @param deleteUnverified also delete files no manifest references even when younger than {@link
 *     #UNVERIFIED_THRESHOLD}. Dangerous while a writer is active: an in-flight write's data files are
 *     unreferenced until it commits.
 * @param errorIfTaggedOldVersions refuse the whole run, before any delete, when a tagged version
 *     would otherwise be removed (Lance's default); when false such versions are simply kept
 * @param cleanReferencedBranches also clean the branches this table's cleanup finds referenced, as
 *     Lance's option of the same name
 * @param unverifiedGuard with {@code deleteUnverified}, unreferenced files younger than this are
 *     still kept: a write in progress has unreferenced files until it commits, and Lance's own rule
 *     protects only files newer than the earliest kept version. {@link Duration#ZERO} (the user's
 *     explicit {@code allow_short_retention}) is Lance's behaviour.
 * @param retainLast keep this many of the newest versions whatever their age (Iceberg's {@code
 *     retain_last}); a bound on top of the others, so it only ever keeps more ({@link RetainLast})
 * @param orphanSweep {@code remove_orphan_files}: no version qualifies, so every version is retained
 *     and nothing is "verified"; {@link #beforeTimestamp()} is then the cutoff of the files
 *     themselves (an unreferenced file modified before it goes) and {@link #deleteUnverified()} is
 *     set, so the retention guard applies as to any delete of unreferenced files ({@link #orphanSweep})
 */
public record CleanupPolicy(
    Optional<Instant> beforeTimestamp,
    OptionalLong beforeVersion,
    boolean deleteUnverified,
    boolean errorIfTaggedOldVersions,
    boolean cleanReferencedBranches,
    Duration unverifiedGuard,
    OptionalInt retainLast,
    boolean orphanSweep)
    implements Serializable {

  /**
   * The default retention guard for {@code delete_unverified}, as Iceberg's orphan-file guard and
   * Delta's {@code retentionDurationCheck}: a window shorter than this is refused unless asked for.
   */
  public static final Duration DEFAULT_RETENTION_GUARD = Duration.ofDays(1);

  /** Files no manifest references are kept this long unless {@code deleteUnverified} (Lance: 7 days). */
  public static final Duration UNVERIFIED_THRESHOLD = Duration.ofDays(7);

  /** LanceDB's default window for {@code older_than}. */
  public static final Duration DEFAULT_OLDER_THAN = Duration.ofDays(7);

  public CleanupPolicy {
    Objects.requireNonNull(beforeTimestamp, "beforeTimestamp");
    Objects.requireNonNull(beforeVersion, "beforeVersion");
    Objects.requireNonNull(unverifiedGuard, "unverifiedGuard");
    Objects.requireNonNull(retainLast, "retainLast");
    if (retainLast.isPresent() && retainLast.getAsInt() < 1) {
      throw new IllegalArgumentException("retain_last must be >= 1: " + retainLast.getAsInt());
    }
    if (unverifiedGuard.isNegative()) {
      throw new IllegalArgumentException("retention guard must not be negative: " + unverifiedGuard);
    }
    if (beforeVersion.isPresent() && beforeVersion.getAsLong() < 0) {
      throw new IllegalArgumentException("before_version must be >= 0: " + beforeVersion.getAsLong());
    }
    if (orphanSweep && (beforeTimestamp.isEmpty() || !deleteUnverified || beforeVersion.isPresent()
        || retainLast.isPresent() || cleanReferencedBranches)) {
      throw new IllegalArgumentException("remove_orphan_files expires no version: it takes a file cutoff (older_than)"
          + " and none of before_version, retain_last, clean_referenced_branches");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The policy under its option names, for the stage logs. */
  @Override
  public String toString() {
    if (orphanSweep) {
      return "remove_orphan_files: unreferenced files modified before " + beforeTimestamp.get()
          + ", retention_guard=" + unverifiedGuard;
    }
    return "before_timestamp=" + beforeTimestamp.map(Instant::toString).orElse("none")
        + ", before_version=" + (beforeVersion.isPresent() ? Long.toString(beforeVersion.getAsLong()) : "none")
        + ", delete_unverified=" + deleteUnverified
        + ", error_if_tagged_old_versions=" + errorIfTaggedOldVersions
        + ", clean_referenced_branches=" + cleanReferencedBranches
        + (deleteUnverified ? ", retention_guard=" + unverifiedGuard : "")
        + (retainLast.isPresent() ? ", retain_last=" + retainLast.getAsInt() : "");
  }

  /**
   * This policy for a dataset that lists {@code ascendingVersions}: with {@link #retainLast()},
   * {@code before_version} becomes the lower of its own value and the oldest of the N newest, so
   * that a version goes only when every bound lets it go. Without it, this policy. Resolving twice
   * against the same listing gives the same policy.
   */
  public CleanupPolicy forVersions(List<Long> ascendingVersions) {
    if (retainLast.isEmpty() || ascendingVersions.isEmpty()) {
      return this;
    }
    long oldestKept = RetainLast.oldestKept(ascendingVersions, retainLast.getAsInt());
    long bound = beforeVersion.isPresent() ? Math.min(beforeVersion.getAsLong(), oldestKept) : oldestKept;
    return new CleanupPolicy(beforeTimestamp, OptionalLong.of(bound), deleteUnverified, errorIfTaggedOldVersions,
        cleanReferencedBranches, unverifiedGuard, retainLast, orphanSweep);
  }

  /**
   * This policy with {@code before_timestamp} no later than {@code latest}: a narrowing, for a run
   * whose listing cannot vouch for versions after that instant ({@link
   * dev.lancemaintenance.cleanup.rules.InventorySnapshot}).
   */
  public CleanupPolicy withBeforeTimestampAtMost(Instant latest) {
    Instant bound = beforeTimestamp.filter(own -> own.isBefore(latest)).orElse(latest);
    return new CleanupPolicy(Optional.of(bound), beforeVersion, deleteUnverified, errorIfTaggedOldVersions,
        cleanReferencedBranches, unverifiedGuard, retainLast, orphanSweep);
  }

  /**
   * Engines ship the policy to their tasks, but {@link Optional} is not serializable: a proxy of
   * plain fields travels instead and rebuilds the record, with its checks, on arrival.
   */
  private Object writeReplace() {
    return new SerializedForm(
        beforeTimestamp.orElse(null),
        beforeVersion.isPresent() ? beforeVersion.getAsLong() : null,
        deleteUnverified,
        errorIfTaggedOldVersions,
        cleanReferencedBranches,
        unverifiedGuard,
        retainLast.isPresent() ? retainLast.getAsInt() : null,
        orphanSweep);
  }

  private record SerializedForm(
      Instant beforeTimestamp,
      Long beforeVersion,
      boolean deleteUnverified,
      boolean errorIfTaggedOldVersions,
      boolean cleanReferencedBranches,
      Duration unverifiedGuard,
      Integer retainLast,
      boolean orphanSweep)
      implements Serializable {
    private Object readResolve() {
      return new CleanupPolicy(
          Optional.ofNullable(beforeTimestamp),
          beforeVersion == null ? OptionalLong.empty() : OptionalLong.of(beforeVersion),
          deleteUnverified,
          errorIfTaggedOldVersions,
          cleanReferencedBranches,
          unverifiedGuard,
          retainLast == null ? OptionalInt.empty() : OptionalInt.of(retainLast),
          orphanSweep);
    }
  }

  /** Whether a version with this number and manifest timestamp qualifies for removal; none in an orphan sweep. */
  public boolean qualifies(long version, long timestampNanos) {
    if (orphanSweep) {
      return false;
    }
    boolean oldEnough =
        beforeTimestamp.isEmpty() || timestampNanos < toEpochNanos(beforeTimestamp.get());
    boolean lowEnough = beforeVersion.isEmpty() || version < beforeVersion.getAsLong();
    return oldEnough && lowEnough;
  }

  /**
   * The millisecond before which an unreferenced file may go, or empty to take Lance's rule (files
   * older than the earliest retained manifest, {@code DecisionContext}). An orphan sweep retains
   * every version, so Lance's rule would protect every file younger than the table's oldest version;
   * its cutoff is the window's instead, which the retention guard keeps at least a day old.
   */
  public OptionalLong orphanCutoffMillis() {
    return orphanSweep ? OptionalLong.of(Math.floorDiv(toEpochNanos(beforeTimestamp.get()), 1_000_000L)) : OptionalLong.empty();
  }

  /**
   * Nanoseconds since the epoch, saturated: an instant after 2262-04-11 or before 1677-09-21 (the
   * range of a signed 64-bit nanosecond count, which manifests use) is plus or minus infinity, as
   * Lance treats such cut-offs, instead of an overflow.
   */
  public static long toEpochNanos(Instant instant) {
    try {
      return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    } catch (ArithmeticException e) {
      return instant.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /** Builds a {@link CleanupPolicy}; defaults are Lance's. */
  public static final class Builder {
    private Instant beforeTimestamp;
    private Long beforeVersion;
    private boolean deleteUnverified = false;
    private boolean errorIfTaggedOldVersions = true;
    private boolean cleanReferencedBranches = false;
    private Duration unverifiedGuard = DEFAULT_RETENTION_GUARD;
    private Integer retainLast;
    private boolean orphanSweep;

    private Builder() {}

    public Builder beforeTimestamp(Instant instant) {
      this.beforeTimestamp = Objects.requireNonNull(instant, "beforeTimestamp");
      return this;
    }

    /** {@code now - olderThan}; {@code now} comes from the caller's clock, decided once per run. */
    public Builder olderThan(Duration olderThan, Instant now) {
      if (olderThan.isNegative()) {
        throw new IllegalArgumentException("older_than must not be negative: " + olderThan);
      }
      return beforeTimestamp(now.minus(olderThan));
    }

    public Builder beforeVersion(long version) {
      if (version < 0) {
        throw new IllegalArgumentException("before_version must be >= 0: " + version);
      }
      this.beforeVersion = version;
      return this;
    }

    public Builder deleteUnverified(boolean value) {
      this.deleteUnverified = value;
      return this;
    }

    public Builder errorIfTaggedOldVersions(boolean value) {
      this.errorIfTaggedOldVersions = value;
      return this;
    }

    public Builder cleanReferencedBranches(boolean value) {
      this.cleanReferencedBranches = value;
      return this;
    }

    /** Unreferenced files younger than this stay even with delete_unverified; ZERO is Lance's rule. */
    public Builder unverifiedGuard(Duration guard) {
      this.unverifiedGuard = Objects.requireNonNull(guard, "unverifiedGuard");
      return this;
    }

    /** Keep the {@code count} newest versions whatever their age; at least 1. */
    public Builder retainLast(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("retain_last must be >= 1: " + count);
      }
      this.retainLast = count;
      return this;
    }

    /**
     * {@code remove_orphan_files} (Iceberg's {@code remove_orphan_files}): no version expires, and the
     * files under the managed directories that no version references (of this dataset, of the
     * branches that read it, under any tag) go when modified before {@link #beforeTimestamp}. This is
     * Lance's cleanup with nothing expiring and {@code delete_unverified}, the cutoff of the files
     * being the window rather than the oldest version's timestamp.
     */
    public Builder orphanSweep() {
      this.orphanSweep = true;
      return this;
    }

    public CleanupPolicy build() {
      return new CleanupPolicy(
          Optional.ofNullable(beforeTimestamp),
          beforeVersion == null ? OptionalLong.empty() : OptionalLong.of(beforeVersion),
          deleteUnverified || orphanSweep,
          errorIfTaggedOldVersions,
          cleanReferencedBranches,
          unverifiedGuard,
          retainLast == null ? OptionalInt.empty() : OptionalInt.of(retainLast),
          orphanSweep);
    }
  }
}
