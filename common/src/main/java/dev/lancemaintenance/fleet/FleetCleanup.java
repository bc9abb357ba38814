package dev.lancemaintenance.fleet;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.ledger.KeySnapshotForecast;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cleanup_all}: the cleanup of every table under a root, each with the same catalogue
 * options and the same "now" (so {@code older_than => '7d'} is one cutoff for the whole fleet), each
 * exactly as {@code cleanup} on that table alone.
 */
public final class FleetCleanup extends FleetRun {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(FleetCleanup.class);

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
   * The call's {@code distribute_above} when it gives one: the same threshold splits the fleet as
   * each table's cleanup applies (a table above it runs on the worker too when its daily run decodes
   * few versions, {@link #runsOnWorkerAbove}; else through the engine's action, which sends it to
   * its jobs); else the engine's setting.
   */
  @Override
  public int runOnWorkerUpTo(int engineDefault) {
    Object given = options.get(CleanupOption.DISTRIBUTE_ABOVE);
    return given == null ? engineDefault : ((Number) given).intValue();
  }

  /**
   * A table above the threshold runs on the worker when the engine's action would clean it in its
   * driver or client ({@code BaseCleanupAction.cleanedInProcessBecause}, the one home of that rule):
   * a daily incremental run with at most {@code distribute_above} versions new since the last run's
   * key snapshot, here foretold from the names in the table's ledger directory ({@link
   * KeySnapshotForecast}: one listing, no file read). The worker's local engine then runs exactly
   * the run that action would run in its driver, and makes the snapshot's checks itself: a forecast
   * that proves wrong (a snapshot that cannot be used, a segment without its snapshot) costs time,
   * its run taking today's path, exact and bounded in memory, never a delete the table's own {@code
   * cleanup} would not make. A forecast that cannot be made defers the table, as before.
   */
  @Override
  protected boolean runsOnWorkerAbove(TableStorage table, List<ManifestLocation> listed, long distributeAbove) {
    LocalCleanupAction daily = configure(localCleanup(table.location()))
        .distributeAbove((int) Math.min(distributeAbove, Integer.MAX_VALUE));
    Optional<String> onWorker =
        daily.cleanedInProcessBecause(listed.size(), () -> newSinceKeySnapshot(table, daily.request(), listed));
    onWorker.ifPresent(why -> LOG.info("lance cleanup_all {}: {}: cleaning on the worker", table.location(), why));
    return onWorker.isPresent();
  }

  /**
   * The forecast of the versions a daily run of {@code request} decodes, empty where its key
   * snapshot's path is closed whatever the ledger holds (a branch, an inventory) or the ledger's
   * directory cannot be listed (the driver's action then decides, exactly).
   */
  private static OptionalLong newSinceKeySnapshot(TableStorage table, DatasetCleanup request, List<ManifestLocation> listed) {
    if (!request.dataset().isMain() || request.inventory() != null) {
      return OptionalLong.empty();
    }
    try {
      return KeySnapshotForecast.versionsToDecode(table, request.dataset(), listed);
    } catch (RuntimeException e) {
      LOG.info("lance cleanup_all {}: cannot list the ledger's directory ({}); left to the driver", table.location(), e.toString());
      return OptionalLong.empty();
    }
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
