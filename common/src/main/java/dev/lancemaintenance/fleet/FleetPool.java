package dev.lancemaintenance.fleet;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.storage.TableLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs a fleet's tables on a bounded pool of threads in this JVM: the local engine's fleet, and
 * how a driver runs the tables its workers left to it. The outcomes come back in the tables' order.
 */
public final class FleetPool {
  /** Tables run at once by default: each table's run has its own pool of workers. */
  public static final int DEFAULT_CONCURRENT_TABLES = 4;

  private FleetPool() {}

  public static List<TableOutcome> run(List<TableLocation> tables, int concurrentTables, Function<TableLocation, TableOutcome> run) {
    if (concurrentTables < 1) {
      throw new IllegalArgumentException("concurrent tables must be at least 1, not " + concurrentTables);
    }
    if (tables.isEmpty()) {
      return List.of();
    }
    ExecutorService pool = Executors.newFixedThreadPool(
        Math.min(concurrentTables, tables.size()), DaemonThreads.named("lance-fleet"));
    try {
      List<Future<TableOutcome>> running = new ArrayList<>();
      for (TableLocation table : tables) {
        running.add(pool.submit(() -> run.apply(table)));
      }
      List<TableOutcome> outcomes = new ArrayList<>();
      for (Future<TableOutcome> outcome : running) {
        outcomes.add(outcome.get());
      }
      return outcomes;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the fleet ran", e);
    } catch (ExecutionException e) {
      // TableOutcome.of catches a table's own failure; what arrives here is an error (out of memory).
      throw new IllegalStateException("a table's run failed outside its row", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
