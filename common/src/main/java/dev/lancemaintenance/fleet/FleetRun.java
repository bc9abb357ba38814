package dev.lancemaintenance.fleet;

import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The shape every fleet call shares ({@code cleanup_all}, {@code describe_storage_all}, {@code
 * optimize_all}), parameterised by the maintenance it runs on each table: the tables under a root,
 * each run with the same options and the same "now" exactly as the one-table call, one {@link
 * TableOutcome} per table. Serializable: workers run small tables on the local engine ({@link
 * #onWorker}); the driver or the CLI's pool runs a table through an engine's own one-table action
 * ({@link #through}).
 */
public abstract class FleetRun implements Serializable {
  /**
   * Versions up to which an engine without a setting of its own runs a table inside one worker
   * (the local engine in a Flink subtask): {@link DistributeAbove#DEFAULT}, for the reason that
   * threshold gives; a call's {@code distribute_above} overrides it ({@link #runOnWorkerUpTo}).
   */
  public static final long RUN_ON_WORKER_UP_TO = DistributeAbove.DEFAULT;
  private static final long serialVersionUID = 1L;

  private final TableStorageFactory storage;
  private final Instant now;

  protected FleetRun(TableStorageFactory storage, Instant now) {
    this.storage = Objects.requireNonNull(storage, "storage");
    this.now = Objects.requireNonNull(now, "now");
  }

  /** The call's name, for job names and logs ({@code cleanup_all}). */
  public abstract String operation();

  /** The counters of a table that ran, in their order: the columns of the call's rows. */
  public abstract List<String> counterNames();

  /** The one-table run on the local engine, here: what a worker does with a small table. */
  protected abstract Map<String, Long> runLocally(TableLocation table) throws Exception;

  /**
   * Versions up to which a worker runs a table itself ({@link #onWorker}), the larger ones deferred
   * to the engine's distributed run: {@code engineDefault}, the engine's setting (Spark's session,
   * Flink's configuration), unless the call gives its own ({@link FleetCleanup}: {@code
   * distribute_above}).
   */
  public int runOnWorkerUpTo(int engineDefault) {
    return engineDefault;
  }

  /** The tables under {@code root} whose directory names match {@code pattern}: one listing of the root. */
  public final List<TableLocation> tables(TableLocation root, String pattern) {
    try (TableStorage opened = storage.open(root)) {
      return DirectoryNamespace.tables(opened, pattern);
    }
  }

  /**
   * On a worker (a Spark task, a Flink subtask): the table's run on the local engine, or, for a
   * table of more than {@code distributeAbove} versions that this kind does not run on a worker
   * all the same ({@link #runsOnWorkerAbove}), {@link TableStatus#DEFERRED} to the driver's run
   * through the engine's action.
   */
  public final TableOutcome onWorker(TableLocation table, long distributeAbove) {
    return TableOutcome.of(table, storage, this::runLocally,
        (opened, listed) -> listed.size() <= distributeAbove || runsOnWorkerAbove(opened, listed, distributeAbove));
  }

  /**
   * Whether a worker runs a table of more than {@code distributeAbove} versions itself all the same,
   * as the engine's action would run it in its driver or client: never here, since describe and
   * optimize read what a table holds, whatever changed since the last run; {@link FleetCleanup}
   * for a daily incremental run that decodes few versions. Decided before anything of the run
   * begins, so a table deferred leaves nothing behind.
   *
   * @param table the table's storage, open for the choice alone
   * @param listed the table's versions, as {@code _versions/} lists them
   */
  protected boolean runsOnWorkerAbove(TableStorage table, List<ManifestLocation> listed, long distributeAbove) {
    return false;
  }

  /** The table's run through {@code task} (an engine's own one-table action), here in this JVM. */
  public final TableOutcome through(TableLocation table, TableTask task) {
    return TableOutcome.of(table, storage, task);
  }

  protected final TableStorageFactory storage() {
    return storage;
  }

  /** The call's "now", read once for every table. */
  protected final Instant now() {
    return now;
  }
}
