package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.OlderThan;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
 * <p>The options are the two catalogues' ({@link #OPTIONS}): compaction options go to {@link
 * #compaction()}, cleanup options are kept as given and applied to the cleanup action (once for the
 * pre-flight, again when the cleanup starts), so the policy is always the cleanup's own. Engine
 * settings (parallelism, storage) go on the actions handed in.
 */
public final class OptimizeAction {
  private static final Logger LOG = LoggerFactory.getLogger(OptimizeAction.class);

  /**
   * The cleanup options optimize takes, in the order it first took them (positional SQL calls keep
   * their meaning): all but {@code branch}, since the compaction rewrites the main line.
   */
  public static final List<CleanupOption> CLEANUP_OPTIONS =
      List.of(
          CleanupOption.OLDER_THAN, CleanupOption.DELETE_UNVERIFIED, CleanupOption.ERROR_IF_TAGGED_OLD_VERSIONS,
          CleanupOption.DRY_RUN, CleanupOption.ALLOW_SHORT_RETENTION, CleanupOption.BEFORE_VERSION,
          CleanupOption.CLEAN_REFERENCED_BRANCHES, CleanupOption.MAX_CONCURRENT_DELETES,
          CleanupOption.DELETE_RATE_LIMIT);

  /** Every option of optimize: the compaction options, then {@link #CLEANUP_OPTIONS}. */
  public static final OptionCatalogue OPTIONS =
      OptionCatalogue.of("optimize", List.of(CompactionOption.values()), CLEANUP_OPTIONS);

  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final CompactAction compact;
  private final CleanupAction cleanup;
  private final Clock clock;
  private final Map<CleanupOption, Object> cleanupOptions = new EnumMap<>(CleanupOption.class);

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

  /**
   * Sets options by their SQL names, compaction and cleanup alike ({@code target_rows_per_fragment},
   * {@code older_than}, ...; see {@link #OPTIONS}); an unknown, repeated or NULL-valued name is an
   * error naming it, before anything is read.
   */
  public OptimizeAction options(Map<String, String> options) {
    return optionValues(OPTIONS.parseAll(options));
  }

  /** Sets options of either catalogue by option; a NULL for one that decides what is deleted is an error. */
  public OptimizeAction optionValues(Map<? extends MaintenanceOption, ?> values) {
    CompactionOption.applyTo(compact, OptionCatalogue.only(CompactionOption.class, values));
    OptionCatalogue.only(CleanupOption.class, values).forEach(this::cleanupOption);
    return this;
  }

  private OptimizeAction cleanupOption(CleanupOption option, Object value) {
    if (!CLEANUP_OPTIONS.contains(option)) {
      throw OPTIONS.unknown(option.sqlName(), List.of());
    }
    if (value == null) {
      if (option.changesWhatIsDeleted()) {
        throw option.nullValue();
      }
      cleanupOptions.remove(option);
      return this;
    }
    // Applied at once too, so that a bad value fails at its setter, naming it, before anything runs.
    CleanupOption.applyTo(cleanup, Map.of(option, value), clock.instant());
    cleanupOptions.put(option, value);
    return this;
  }

  /** The cleanup removes versions older than now minus this (default 7 days). */
  public OptimizeAction olderThan(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("older_than must not be negative: " + value);
    }
    return cleanupOption(CleanupOption.OLDER_THAN, value);
  }

  /**
   * An {@code older_than} argument as the entry points take it: a window ({@code 0s}, {@code 7d},
   * {@code PT2H}), measured back from when the cleanup starts, or an ISO instant.
   */
  public OptimizeAction olderThan(String value) {
    OlderThan.beforeTimestamp(value, clock.instant()); // fails now, naming older_than, on a bad value
    return cleanupOption(CleanupOption.OLDER_THAN, value);
  }

  /** The cleanup removes versions whose manifest timestamp is before this instant. */
  public OptimizeAction beforeTimestamp(Instant instant) {
    return cleanupOption(CleanupOption.OLDER_THAN, Objects.requireNonNull(instant, "beforeTimestamp"));
  }

  /** As {@link CleanupAction#deleteUnverified}: never while anything writes to the table. */
  public OptimizeAction deleteUnverified(boolean value) {
    return cleanupOption(CleanupOption.DELETE_UNVERIFIED, value);
  }

  /** As {@link CleanupAction#allowShortRetention}: lifts the retention guard of delete_unverified. */
  public OptimizeAction allowShortRetention(boolean value) {
    return cleanupOption(CleanupOption.ALLOW_SHORT_RETENTION, value);
  }

  /**
   * Refuse, before compacting, when the cleanup would find tagged old versions (default true).
   * When false, the compaction runs and the cleanup keeps tagged versions and their files.
   */
  public OptimizeAction errorIfTaggedOldVersions(boolean value) {
    return cleanupOption(CleanupOption.ERROR_IF_TAGGED_OLD_VERSIONS, value);
  }

  /** Plan both halves and report, writing and deleting nothing. */
  public OptimizeAction dryRun(boolean dryRun) {
    return cleanupOption(CleanupOption.DRY_RUN, dryRun);
  }

  private CleanupMode mode() {
    return Boolean.TRUE.equals(cleanupOptions.get(CleanupOption.DRY_RUN)) ? CleanupMode.DRY_RUN : CleanupMode.EXECUTE;
  }

  /**
   * Runs the optimize. A real one holds the table's {@link TableLease} throughout, so the
   * compaction's commits and the cleanup (which take it too, nested) run as one turn on the table.
   */
  public OptimizeResult execute() {
    if (mode() == CleanupMode.DRY_RUN) {
      return run();
    }
    try (TableStorage leaseStorage = storageFactory.open(table);
        TableLease held = TableLease.acquire(leaseStorage, "optimize")) {
      return run();
    }
  }

  private OptimizeResult run() {
    long startNanos = System.nanoTime();
    CleanupMode mode = mode();
    // Before compacting: the cleanup half would refuse only after the rewrite.
    CleanupPolicy planned = policyAt(clock.instant());
    CompactionPlan plan = compact.plan();
    if (planned.errorIfTaggedOldVersions()) {
      Instant now = clock.instant();
      refuseIfTagTrap(plan, policyAt(now), now);
    }
    Optional<CompactResult> compacted = Optional.empty();
    if (mode == CleanupMode.EXECUTE) {
      compacted = Optional.of(compact.execute(plan));
    }
    // The window is measured from now, after compacting (see the class comment).
    CleanupOption.applyTo(cleanup, cleanupOptions, clock.instant());
    CleanupResult cleaned = cleanup.execute();
    OptimizeResult result =
        new OptimizeResult(
            table.toString(), mode, plan.tasks().size(), plan.fragmentsToMerge(), compacted, cleaned,
            (System.nanoTime() - startNanos) / 1_000_000L);
    LOG.info("lance optimize {} done: {}", table, result.namedCounters());
    return result;
  }

  /** The cleanup's policy if it started at {@code now}, checked as the cleanup checks it. */
  private CleanupPolicy policyAt(Instant now) {
    return CleanupOption.applyTo(cleanup, cleanupOptions, now).checkedPolicyAt(now);
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
