package dev.lancemaintenance.spark.procedures;

import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Lance procedures by name, for every way Spark calls them (4.x native procedures, the 3.5
 * {@code CALL} extension): at the catalog's root and under {@code system} (the Iceberg spelling),
 * names matched case-insensitively.
 */
public final class LanceProcedures {
  public static final String SYSTEM = "system";

  /** The procedures by lower-case name; immutable. */
  private static final Map<String, Function<Clock, LanceProcedure>> PROCEDURES =
      Map.ofEntries(
          procedure(SparkCleanupProcedure.NAME, SparkCleanupProcedure::new),
          procedure(SparkCleanupAllProcedure.NAME, SparkCleanupAllProcedure::new),
          procedure(SparkCompactProcedure.NAME, SparkCompactProcedure::new),
          procedure(SparkOptimizeProcedure.NAME, SparkOptimizeProcedure::new),
          procedure(SparkDescribeStorageProcedure.NAME, SparkDescribeStorageProcedure::new),
          procedure(SparkTagProcedure.Action.CREATE.procedureName, clock -> new SparkTagProcedure(SparkTagProcedure.Action.CREATE, clock)),
          procedure(SparkTagProcedure.Action.MOVE.procedureName, clock -> new SparkTagProcedure(SparkTagProcedure.Action.MOVE, clock)),
          procedure(SparkTagProcedure.Action.DELETE.procedureName, clock -> new SparkTagProcedure(SparkTagProcedure.Action.DELETE, clock)),
          procedure(SparkCleanupProcedure.ORPHAN_FILES_NAME, SparkCleanupProcedure::removeOrphanFiles),
          procedure(SparkDescribeStorageAllProcedure.NAME, SparkDescribeStorageAllProcedure::new),
          procedure(SparkMaintenanceHistoryProcedure.NAME, SparkMaintenanceHistoryProcedure::new),
          procedure(SparkExpireVersionsProcedure.NAME, SparkExpireVersionsProcedure::new),
          procedure(SparkOptimizeAllProcedure.NAME, SparkOptimizeAllProcedure::new));

  private LanceProcedures() {}

  private static Map.Entry<String, Function<Clock, LanceProcedure>> procedure(String name, Function<Clock, LanceProcedure> make) {
    return Map.entry(name, make);
  }

  /** The procedure {@code namespace.name} of a catalog, if it is one of ours. */
  public static Optional<LanceProcedure> find(String[] namespace, String name, Clock clock) {
    Function<Clock, LanceProcedure> procedure = PROCEDURES.get(name.toLowerCase(Locale.ROOT));
    return procedure == null || !isProcedureNamespace(namespace) ? Optional.empty() : Optional.of(procedure.apply(clock));
  }

  /** The names of the procedures, sorted. */
  public static List<String> names() {
    return PROCEDURES.keySet().stream().sorted().toList();
  }

  public static boolean isProcedureNamespace(String[] namespace) {
    return namespace.length == 0 || (namespace.length == 1 && namespace[0].equalsIgnoreCase(SYSTEM));
  }

  /** The error for a name that is none of ours, naming it and what there is. */
  public static IllegalArgumentException notFound(String catalog, String[] namespace, String name) {
    return new IllegalArgumentException(
        "No procedure " + catalog + "." + String.join(".", namespace) + (namespace.length > 0 ? "." : "") + name
            + " (available: " + String.join(", ", names()) + ", also under " + catalog + "." + SYSTEM + ")");
  }
}
