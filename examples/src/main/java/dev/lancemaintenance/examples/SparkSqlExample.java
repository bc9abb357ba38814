package dev.lancemaintenance.examples;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Cleanup from Spark SQL: register the {@code lance} procedure catalog once per session, then
 * {@code CALL lance.cleanup(...)} like any statement. The call returns one row of counters.
 *
 * <p>Run: {@code bin/lance-maintenance example spark-sql [table]}.
 */
public final class SparkSqlExample {
  private SparkSqlExample() {}

  public static void main(String[] args) {
    String table = ExampleTable.fromArgs(args, "spark-sql-example");
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("lance-maintenance Spark SQL example")
            .config("spark.ui.enabled", "false")
            // The one setting the procedures need; s3a settings would go in as spark.hadoop.fs.s3a.*.
            .config("spark.sql.catalog.lance", "dev.lancemaintenance.spark.procedures.LanceProcedureCatalog")
            .getOrCreate();
    try {
      Row result = cleanup(spark, table, "0s");
      System.out.println(result.schema().simpleString());
      System.out.println(result);
    } finally {
      spark.stop();
    }
  }

  /** Removes the versions of {@code table} older than {@code olderThan} ('7d', '36h', '0s', ...). */
  public static Row cleanup(SparkSession spark, String table, String olderThan) {
    return spark
        .sql("CALL lance.cleanup(table => '" + quoted(table) + "', older_than => '" + quoted(olderThan) + "')")
        .first();
  }

  /** Spark SQL string literals escape quotes with a backslash. */
  private static String quoted(String value) {
    return value.replace("\\", "\\\\").replace("'", "\\'");
  }
}
