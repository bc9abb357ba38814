package dev.lancemaintenance.fleet;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code cleanup_all}: the cleanup of every table under a root, each with the same catalogue
 * options and the same "now" (so {@code older_than => '7d'} is one cutoff for the whole fleet), each
 * exactly as {@code cleanup} on that table alone. Serializable: workers run small tables with the
 * local engine ({@link #onWorker}); the driver or the CLI's pool runs a table through an engine's
 * own action ({@link #through}).
 */
public final class FleetCleanup implements Serializable {
  /**
   * Versions up to which an engine without its own setting cleans a table inside one worker (the
   * local engine in a Flink subtask): below some thousands of versions, scheduling distributed
   * stages costs more than the work, as Spark's {@code distributeAbove} measured.
   */
  public static final long RUN_ON_WORKER_UP_TO = 5_000;
  private static final long serialVersionUID = 1L;

  private final TableStorageFactory storage;
  private final EnumMap<CleanupOption, Object> options;
  private final Instant now;

  private FleetCleanup(TableStorageFactory storage, Map<CleanupOption, ?> options, Instant now) {
    this.storage = storage;
    this.options = options.isEmpty() ? new EnumMap<>(CleanupOption.class) : new EnumMap<>(options);
    this.now = now;
  }

  /**
   * A fleet cleanup with these options; they are checked here, before any table is looked at, by
   * applying them to a cleanup of {@code root} (a bad value fails the call, not each table's row).
   */
  public static FleetCleanup of(TableLocation root, TableStorageFactory storage, Map<CleanupOption, ?> options, Instant now) {
    FleetCleanup fleet = new FleetCleanup(storage, options, now);
    fleet.configure(new LocalCleanupAction(root, storage, Clock.fixed(now, ZoneOffset.UTC)));
    return fleet;
  }

  /** The tables under {@code root} whose directory names match {@code pattern}: one listing of the root. */
  public List<TableLocation> tables(TableLocation root, String pattern) {
    try (TableStorage opened = storage.open(root)) {
      return DirectoryNamespace.tables(opened, pattern);
    }
  }

  /** Whether the options ask for a dry run. */
  public boolean dryRun() {
    return Boolean.TRUE.equals(options.get(CleanupOption.DRY_RUN));
  }

  /**
   * On a worker (a Spark task, a Flink subtask): the table's cleanup on the local engine, or, for a
   * table of more than {@code distributeAbove} versions, {@link TableStatus#DEFERRED} to the
   * driver's distributed run.
   */
  public TableOutcome onWorker(TableLocation table, long distributeAbove) {
    return TableOutcome.of(table, storage,
        t -> configure(new LocalCleanupAction(t, storage, Clock.fixed(now, ZoneOffset.UTC))).execute().namedCounters(),
        distributeAbove);
  }

  /** The table's cleanup through an engine's own one-table action, here in this JVM. */
  public TableOutcome through(TableLocation table, Function<TableLocation, ? extends CleanupAction> engine) {
    return TableOutcome.of(table, storage, t -> counters(configure(engine.apply(t)).execute()));
  }

  private static Map<String, Long> counters(CleanupResult result) {
    return result.namedCounters();
  }

  private <A extends CleanupAction> A configure(A action) {
    return CleanupOption.applyTo(action, options, now);
  }
}
