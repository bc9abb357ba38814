package dev.lancemaintenance.fleet;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
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
 * exactly as {@code cleanup} on that table alone.
 */
public final class FleetCleanup extends FleetRun {
  private static final long serialVersionUID = 1L;

  private final EnumMap<CleanupOption, Object> options;

  private FleetCleanup(TableStorageFactory storage, Map<CleanupOption, ?> options, Instant now) {
    super(storage, now);
    this.options = options.isEmpty() ? new EnumMap<>(CleanupOption.class) : new EnumMap<>(options);
  }

  /**
   * A fleet cleanup with these options; they are checked here, before any table is looked at, by
   * applying them to a cleanup of {@code root} (a bad value fails the call, not each table's row).
   */
  public static FleetCleanup of(TableLocation root, TableStorageFactory storage, Map<CleanupOption, ?> options, Instant now) {
    FleetCleanup fleet = new FleetCleanup(storage, options, now);
    fleet.configure(fleet.localCleanup(root));
    return fleet;
  }

  @Override
  public String operation() {
    return "cleanup_all";
  }

  @Override
  public List<String> counterNames() {
    return CleanupResult.counterNames();
  }

  /**
   * The call's {@code distribute_above} when it gives one: the same threshold splits the fleet
   * (a table above it runs through the engine's action, which sends it to its jobs or, for a daily
   * run with few new versions, cleans it in its driver or client) as each table's cleanup applies;
   * else the engine's setting.
   */
  @Override
  public int runOnWorkerUpTo(int engineDefault) {
    Object given = options.get(CleanupOption.DISTRIBUTE_ABOVE);
    return given == null ? engineDefault : ((Number) given).intValue();
  }

  /** Whether the options ask for a dry run. */
  public boolean dryRun() {
    return Boolean.TRUE.equals(options.get(CleanupOption.DRY_RUN));
  }

  @Override
  protected Map<String, Long> runLocally(TableLocation table) {
    return configure(localCleanup(table)).execute().namedCounters();
  }

  /** A table's cleanup through an engine's own one-table action, for {@link #through}. */
  public TableTask using(Function<TableLocation, ? extends CleanupAction> engine) {
    return table -> configure(engine.apply(table)).execute().namedCounters();
  }

  private LocalCleanupAction localCleanup(TableLocation table) {
    return new LocalCleanupAction(table, storage(), Clock.fixed(now(), ZoneOffset.UTC));
  }

  private <A extends CleanupAction> A configure(A action) {
    return CleanupOption.applyTo(action, options, now());
  }
}
