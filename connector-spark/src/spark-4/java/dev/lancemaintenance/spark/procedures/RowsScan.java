package dev.lancemaintenance.spark.procedures;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * A procedure's output rows. Spark 4.1 turns a procedure's result into a local relation and accepts
 * only {@link LocalScan}, so what a procedure returns is held on the driver.
 */
final class RowsScan implements LocalScan {
  private final StructType schema;
  private final InternalRow[] rows;

  RowsScan(StructType schema, InternalRow[] rows) {
    this.schema = schema;
    this.rows = rows;
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public InternalRow[] rows() {
    return rows;
  }

  @Override
  public String description() {
    return "lance procedure result (" + rows.length + " rows)";
  }
}
