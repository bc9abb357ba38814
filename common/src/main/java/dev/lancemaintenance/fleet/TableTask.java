package dev.lancemaintenance.fleet;

import dev.lancemaintenance.storage.TableLocation;
import java.io.Serializable;
import java.util.Map;

/**
 * What a fleet run does to one table: the one-table action of an engine, returning its named
 * counters ({@code CleanupResult.namedCounters()}, {@code OptimizeResult.namedCounters()}).
 * Serializable so that workers can run it; engines throw checked exceptions too (a Spark job).
 */
@FunctionalInterface
public interface TableTask extends Serializable {
  Map<String, Long> run(TableLocation table) throws Exception;
}
