package dev.lancemaintenance.fleet;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalCompactionEngine;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code optimize_all}: LanceDB's optimize (compaction, then cleanup; {@link OptimizeAction}) of
 * every table under a root, each with the same options exactly as {@code optimize} on that table
 * alone, in one row of {@link OptimizeResult#namedCounters()} per table.
 *
 * <p>Unlike the other fleet calls, a window ({@code older_than => '0s'}, {@code '7d'}) is not one
 * cutoff for the fleet: as in optimize on one table (and LanceDB), it is measured back from when
 * each table's cleanup starts, after that table's compaction committed, so a window of 0 s reclaims
 * the fragments the compaction merged. The clock that starts it is the one of the machine that just
 * compacted the table, whose clock also stamped the compaction's versions. An instant ({@code
 * older_than => '2026-01-31T00:00:00Z'}) is one cutoff for every table.
 */
public final class FleetOptimize extends FleetRun {
  private static final long serialVersionUID = 1L;

  private final LinkedHashMap<MaintenanceOption, Object> options;
  private final HashMap<String, String> sdkStorageOptions;
  private final Clock clock;

  private FleetOptimize(
      TableStorageFactory storage, Map<String, String> sdkStorageOptions, Map<? extends MaintenanceOption, ?> options,
      Clock clock) {
    super(storage, clock.instant());
    this.options = new LinkedHashMap<>(options);
    this.sdkStorageOptions = new HashMap<>(sdkStorageOptions);
    this.clock = clock;
  }

  /**
   * A fleet optimize with these options of {@link OptimizeAction#OPTIONS}; they are checked here,
   * before any table is looked at, by applying them to an optimize of {@code root} (a bad value fails
   * the call, not each table's row).
   *
   * @param sdkStorageOptions the Lance SDK's object-store options for the compactions; may hold secrets
   */
  public static FleetOptimize of(
      TableLocation root, TableStorageFactory storage, Map<String, String> sdkStorageOptions,
      Map<? extends MaintenanceOption, ?> options, Clock clock) {
    FleetOptimize fleet = new FleetOptimize(storage, sdkStorageOptions, options, Objects.requireNonNull(clock, "clock"));
    fleet.configure(fleet.localOptimize(root));
    return fleet;
  }

  @Override
  public String operation() {
    return "optimize_all";
  }

  @Override
  public List<String> counterNames() {
    return OptimizeResult.counterNames();
  }

  /** Whether the options ask for a dry run. */
  public boolean dryRun() {
    return Boolean.TRUE.equals(options.get(CleanupOption.DRY_RUN));
  }

  @Override
  protected Map<String, Long> runLocally(TableLocation table) {
    return configure(localOptimize(table)).execute().namedCounters();
  }

  /**
   * A table's optimize through an engine's own one-table action (its distributed compaction and
   * cleanup), for {@link #through}: {@code engine} makes the action, with the engine's settings.
   */
  public TableTask using(Function<TableLocation, OptimizeAction> engine) {
    return table -> configure(engine.apply(table)).execute().namedCounters();
  }

  private OptimizeAction localOptimize(TableLocation table) {
    return new OptimizeAction(
        table, storage(), new EngineCompactAction(CompactionTable.of(table, sdkStorageOptions), new LocalCompactionEngine()),
        new LocalCleanupAction(table, storage(), clock), clock);
  }

  private OptimizeAction configure(OptimizeAction action) {
    return action.optionValues(options);
  }
}
