package dev.lancemaintenance.spark.procedures;

import java.time.Clock;
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
    return LanceProcedures.find(ident.namespace(), ident.name(), Clock.systemUTC())
        .map(NativeProcedure::new)
        .orElseThrow(() -> LanceProcedures.notFound(name, ident.namespace(), ident.name()));
  }

  // No @Override: Spark 4.1 added listProcedures (SHOW PROCEDURES); 4.0's ProcedureCatalog lacks it.
  public Identifier[] listProcedures(String[] namespace) {
    if (!LanceProcedures.isProcedureNamespace(namespace)) {
      return new Identifier[0];
    }
    return LanceProcedures.names().stream().map(p -> Identifier.of(namespace, p)).toArray(Identifier[]::new);
  }
}
