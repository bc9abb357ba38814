package dev.lancemaintenance.fleet;

import dev.lancemaintenance.UserErrors;
import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.compaction.TagTrapException;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One table's row of a fleet run: the table (without credentials), its status, the counters of its
 * run (empty unless {@link TableStatus#OK}) and the one-line error of a table that did not run.
 *
 * @param error the message of a table that was skipped, refused or failed; null when it ran (the
 *     record crosses to Spark and Flink workers, where {@code Optional} does not serialize)
 */
public record TableOutcome(String table, TableStatus status, Map<String, Long> counters, String error)
    implements Serializable {
  public TableOutcome {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(status, "status");
    counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
  }

  public Optional<String> errorMessage() {
    return Optional.ofNullable(error);
  }

  /**
   * Runs {@code task} on {@code table} and says how it went; never throws for the table's own
   * failure, so one bad table does not stop the others. A directory that is not a runnable table
   * ({@link DirectoryNamespace#inspect}) is reported without running the task.
   */
  public static TableOutcome of(TableLocation table, TableStorageFactory storage, TableTask task) {
    return of(table, storage, task, (opened, listed) -> true);
  }

  /**
   * As {@link #of(TableLocation, TableStorageFactory, TableTask)} on a worker: a table that {@code
   * runsHere} does not take is not run but {@link TableStatus#DEFERRED} to the driver, before
   * anything of its run (a lease, a run record, a read of its ledger's files) has begun.
   */
  static TableOutcome of(TableLocation table, TableStorageFactory storage, TableTask task, WorkerChoice runsHere) {
    String name = table.toString();
    try {
      boolean here;
      try (TableStorage opened = storage.open(table)) {
        DirectoryNamespace.Inspection seen = DirectoryNamespace.inspect(opened);
        if (seen.leftAlone().isPresent()) {
          return seen.leftAlone().get();
        }
        here = runsHere.runsHere(opened, seen.listed());
      }
      return here ? ran(name, task, table) : deferred(table);
    } catch (RuntimeException e) {
      return failed(name, e);
    }
  }

  /** Whether a worker runs a table it inspected, or defers it to the driver ({@link FleetRun#onWorker}). */
  @FunctionalInterface
  interface WorkerChoice {
    /** @param listed the table's versions, as {@code _versions/} lists them (at least one) */
    boolean runsHere(TableStorage table, List<ManifestLocation> listed);
  }

  /** A large table a worker leaves to the driver's distributed run. */
  static TableOutcome deferred(TableLocation table) {
    return new TableOutcome(table.toString(), TableStatus.DEFERRED, Map.of(), null);
  }

  static TableOutcome leftAlone(TableLocation table, TableStatus status, String why) {
    return new TableOutcome(table.toString(), status, Map.of(), "Table " + table + " " + why);
  }

  private static TableOutcome ran(String name, TableTask task, TableLocation table) {
    try {
      return new TableOutcome(name, TableStatus.OK, task.run(table), null);
    } catch (Exception e) { // engines throw checked ones too (a Spark job failure)
      return failed(name, e);
    }
  }

  /** A refusal over tags is its own status: the way out is a tag command, not a repair. */
  private static TableOutcome failed(String name, Exception e) {
    boolean refused = false;
    for (Throwable cause = e; cause != null && !refused; cause = cause.getCause() == cause ? null : cause.getCause()) {
      refused = cause instanceof TaggedVersionsException || cause instanceof TagTrapException;
    }
    return new TableOutcome(name, refused ? TableStatus.REFUSED : TableStatus.FAILED, Map.of(), UserErrors.message(e));
  }
}
