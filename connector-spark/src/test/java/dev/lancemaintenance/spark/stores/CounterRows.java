package dev.lancemaintenance.spark.stores;

import dev.lancemaintenance.testing.OracleStats;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Runs a {@code CALL lance.cleanup(...)} and reads its one counter row. */
final class CounterRows {
  private CounterRows() {}

  /** The single row of {@code call}; fails if the call returns more or fewer. */
  static Row single(SparkSession spark, String call) {
    List<Row> rows = spark.sql(call).collectAsList();
    if (rows.size() != 1) {
      throw new AssertionError(call + " returned " + rows.size() + " rows, expected one counter row");
    }
    return rows.get(0);
  }

  /** The row's counters in the shape of the SDK's RemovalStats. */
  static OracleStats asOracleStats(Row row) {
    return new OracleStats(
        row.<Long>getAs("bytes_removed"),
        row.<Long>getAs("old_versions"),
        row.<Long>getAs("data_files_removed"),
        row.<Long>getAs("transaction_files_removed"),
        row.<Long>getAs("index_files_removed"),
        row.<Long>getAs("deletion_files_removed"));
  }

  /** {@code map('k1', 'v1', ...)}: Hadoop settings as the procedure's {@code options} argument. */
  static String mapLiteral(Map<String, String> settings) {
    return settings.entrySet().stream()
        .map(e -> quote(e.getKey()) + ", " + quote(e.getValue()))
        .collect(Collectors.joining(", ", "map(", ")"));
  }

  static String quote(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
