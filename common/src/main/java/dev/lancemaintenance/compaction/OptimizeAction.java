package dev.lancemaintenance.compaction;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.OlderThan;
import dev.lancemaintenance.cleanup.RetentionGuard;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LanceDB's {@code optimize()} without its index step: compaction, then cleanup, on any engine: it
 * composes an engine's {@link CompactAction} and {@link CleanupAction}.
 *
 * <p>Order: plan the compaction (writes nothing); the tag pre-flight; compact; clean up. The
 * pre-flight asks whether the cleanup would refuse because of a tag once the compaction has
 * committed (a tag on today's latest version then sits on an old version) and, unless {@code
 * error_if_tagged_old_versions} is off, refuses before any work: LanceDB compacts first and fails
 * afterwards.
 *
 * <p>A window ({@link #olderThan}) is turned into a cutoff when the cleanup starts, after the
 * compaction has committed, as LanceDB's Rust and Python {@code optimize} do: {@code older_than 0s}
 * then reclaims the merged fragments at once, including those that the compaction's own earlier
 * commits still named. The pre-flight uses the cutoff of its own moment; a tagged version that only
 * the later cutoff reaches is refused by the cleanup itself, after compacting, as in LanceDB.
 *
 * <p>Retention settings are set here, because the pre-flight needs them; engine settings (delete
 * rate, parallelism, compaction options) on the actions handed in.
 */
public final class OptimizeAction {
  private static final Logger LOG = LoggerFactory.getLogger(OptimizeAction.class);

  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final CompactAction compact;
  private final CleanupAction cleanup;
  private final Clock clock;
  private Duration olderThan = CleanupPolicy.DEFAULT_OLDER_THAN;
  private Instant beforeTimestamp;
  private boolean deleteUnverified = false;
  private boolean allowShortRetention = false;
  private boolean errorIfTaggedOldVersions = true;
  private CleanupMode mode = CleanupMode.EXECUTE;

  public OptimizeAction(
      TableLocation table, TableStorageFactory storageFactory, CompactAction compact, CleanupAction cleanup, Clock clock) {
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
    // The compaction's lease is the optimize's own, nested: the same table, the same storage.
    this.compact = Objects.requireNonNull(compact, "compact").leaseThrough(table, storageFactory);
    this.cleanup = Objects.requireNonNull(cleanup, "cleanup");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The compact action, to set compaction options on. */
  public CompactAction compaction() {
    return compact;
  }

  /** The cleanup removes versions older than now minus this (default 7 days). */
  public OptimizeAction olderThan(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("older_than must not be negative: " + value);
    }
    this.olderThan = value;
    this.beforeTimestamp = null;
    return this;
  }

  /**
   * An {@code older_than} argument as the entry points take it: a window ({@code 0s}, {@code 7d},
   * {@code PT2H}), measured back from when the cleanup starts, or an ISO instant.
   */
  public OptimizeAction olderThan(String value) {
    OlderThan.window(value)
        .ifPresentOrElse(this::olderThan, () -> beforeTimestamp(OlderThan.beforeTimestamp(value, clock.instant())));
    return this;
  }

  /** The cleanup removes versions whose manifest timestamp is before this instant. */
  public OptimizeAction beforeTimestamp(Instant instant) {
    this.beforeTimestamp = Objects.requireNonNull(instant, "beforeTimestamp");
    return this;
  }

  /** As {@link CleanupAction#deleteUnverified}: never while anything writes to the table. */
  public OptimizeAction deleteUnverified(boolean value) {
    this.deleteUnverified = value;
    return this;
  }

  /** As {@link CleanupAction#allowShortRetention}: lifts the retention guard of delete_unverified. */
  public OptimizeAction allowShortRetention(boolean value) {
    this.allowShortRetention = value;
    return this;
  }

  /**
   * Refuse, before compacting, when the cleanup would find tagged old versions (default true).
   * When false, the compaction runs and the cleanup keeps tagged versions and their files.
   */
  public OptimizeAction errorIfTaggedOldVersions(boolean value) {
    this.errorIfTaggedOldVersions = value;
    return this;
  }

  /** Plan both halves and report, writing and deleting nothing. */
  public OptimizeAction dryRun(boolean dryRun) {
    this.mode = dryRun ? CleanupMode.DRY_RUN : CleanupMode.EXECUTE;
    return this;
  }

  /**
   * Runs the optimize. A real one holds the table's {@link TableLease} throughout, so the
   * compaction's commits and the cleanup (which take it too, nested) run as one turn on the table.
   */
  public OptimizeResult execute() {
    if (mode == CleanupMode.DRY_RUN) {
      return run();
    }
    try (TableStorage leaseStorage = storageFactory.open(table);
        TableLease held = TableLease.acquire(leaseStorage, "optimize")) {
      return run();
    }
  }

  private OptimizeResult run() {
    long startNanos = System.nanoTime();
    // Before compacting: the cleanup half would refuse only after the rewrite.
    Instant planned = clock.instant();
    RetentionGuard.check(table.toString(), policyAt(planned), planned, allowShortRetention);
    CompactionPlan plan = compact.plan();
    if (errorIfTaggedOldVersions) {
      Instant now = clock.instant();
      refuseIfTagTrap(plan, policyAt(now), now);
    }
    Optional<CompactResult> compacted = Optional.empty();
    if (mode == CleanupMode.EXECUTE) {
      compacted = Optional.of(compact.execute(plan));
    }
    CleanupResult cleaned =
        cleanup
            .beforeTimestamp(cutoffAt(clock.instant()))
            .deleteUnverified(deleteUnverified)
            .allowShortRetention(allowShortRetention)
            .errorIfTaggedOldVersions(errorIfTaggedOldVersions)
            .dryRun(mode == CleanupMode.DRY_RUN)
            .execute();
    OptimizeResult result =
        new OptimizeResult(
            table.toString(), mode, plan.tasks().size(), plan.fragmentsToMerge(), compacted, cleaned,
            (System.nanoTime() - startNanos) / 1_000_000L);
    LOG.info("lance optimize {} done: {}", table, result.namedCounters());
    return result;
  }

  /** The cleanup's cutoff if it started at {@code now}: the instant given, or now minus the window. */
  private Instant cutoffAt(Instant now) {
    return beforeTimestamp != null ? beforeTimestamp : now.minus(olderThan);
  }

  private CleanupPolicy policyAt(Instant now) {
    return CleanupPolicy.builder()
        .beforeTimestamp(cutoffAt(now))
        .deleteUnverified(deleteUnverified)
        .errorIfTaggedOldVersions(errorIfTaggedOldVersions)
        .build();
  }

  private void refuseIfTagTrap(CompactionPlan plan, CleanupPolicy policy, Instant now) {
    SortedMap<String, Long> tags;
    try (TableStorage storage = storageFactory.open(table)) {
      tags = TagTrapPreflight.tagsCleanupWouldRefuse(
          storage, policy, TagTrapPreflight.latestVersionAfter(plan), now.toEpochMilli());
    }
    if (!tags.isEmpty()) {
      throw new TagTrapException(table.toString(), tags, plan.readVersion());
    }
  }
}
