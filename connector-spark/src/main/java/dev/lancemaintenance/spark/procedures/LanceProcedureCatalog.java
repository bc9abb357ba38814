package dev.lancemaintenance.spark.procedures;

import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.ProcedureCatalog;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code lance} catalog of Spark 4's native procedures, no SQL extension needed:
 *
 * <pre>
 * spark.sql.catalog.lance=dev.lancemaintenance.spark.procedures.LanceProcedureCatalog
 * CALL lance.cleanup(table => 's3a://bucket/t.lance', older_than => '7d')
 * CALL lance.system.cleanup('s3a://bucket/t.lance', TIMESTAMP '2026-01-31 00:00:00')
 * CALL lance.compact(table => 's3://bucket/t.lance', target_rows_per_fragment => 1048576)
 * CALL lance.optimize(table => 's3://bucket/t.lance', older_than => '7d')
 * </pre>
 *
 * Procedures live at the catalog's root and under {@code system} (the Iceberg spelling); names are
 * case-insensitive. {@code SHOW PROCEDURES IN lance} and {@code DESCRIBE PROCEDURE lance.cleanup}
 * work on Spark 4.1. The catalog holds no tables.
 */
public class LanceProcedureCatalog implements ProcedureCatalog {
  private static final String SYSTEM = "system";

  /** The procedures by lower-case name; immutable. */
  private static final Map<String, Function<Clock, UnboundProcedure>> PROCEDURES =
      Map.of(
          SparkCleanupProcedure.NAME, SparkCleanupProcedure::new,
          SparkCompactProcedure.NAME, clock -> new SparkCompactProcedure(),
          SparkOptimizeProcedure.NAME, SparkOptimizeProcedure::new);

  private String name = "lance";

  @Override
  public void initialize(String catalogName, CaseInsensitiveStringMap options) {
    this.name = catalogName;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public UnboundProcedure loadProcedure(Identifier ident) {
    Function<Clock, UnboundProcedure> procedure = PROCEDURES.get(ident.name().toLowerCase(Locale.ROOT));
    if (procedure == null || !isProcedureNamespace(ident.namespace())) {
      throw new IllegalArgumentException(
          "No procedure " + name + "." + String.join(".", ident.namespace()) + (ident.namespace().length > 0 ? "." : "")
              + ident.name() + " (available: " + String.join(", ", PROCEDURES.keySet()) + ", also under "
              + name + "." + SYSTEM + ")");
    }
    return procedure.apply(Clock.systemUTC());
  }

  // No @Override: Spark 4.1 added listProcedures (SHOW PROCEDURES); 4.0's ProcedureCatalog lacks
  // it, and the connector still compiles against 4.0.x.
  public Identifier[] listProcedures(String[] namespace) {
    if (!isProcedureNamespace(namespace)) {
      return new Identifier[0];
    }
    return PROCEDURES.keySet().stream().sorted().map(p -> Identifier.of(namespace, p)).toArray(Identifier[]::new);
  }

  private static boolean isProcedureNamespace(String[] namespace) {
    return namespace.length == 0 || (namespace.length == 1 && namespace[0].equalsIgnoreCase(SYSTEM));
  }
}
