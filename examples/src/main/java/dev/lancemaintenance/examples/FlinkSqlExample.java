package dev.lancemaintenance.examples;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Cleanup from Flink SQL: create a catalog of type {@code lance-maintenance}, then call its
 * procedures: {@code sys.cleanup} returns one row of counters, {@code sys.cleanup_files} one row per
 * file that would go (a dry run). The same statements work in Flink's SQL client.
 *
 * <p>Run: {@code bin/lance-maintenance example flink-sql [table]}.
 */
public final class FlinkSqlExample {
  private FlinkSqlExample() {}

  public static void main(String[] args) {
    String table = ExampleTable.fromArgs(args, "flink-sql-example");
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    cleanup(sql, table, "0s").print();
  }

  /** {@code CALL lance.sys.cleanup(...)} on {@code table}; the result has one row of counters. */
  public static TableResult cleanup(TableEnvironment sql, String table, String olderThan) {
    sql.executeSql("CREATE CATALOG IF NOT EXISTS lance WITH ('type' = 'lance-maintenance')");
    return sql.executeSql(
        "CALL lance.sys.cleanup(`table` => '" + quoted(table) + "', older_than => '" + quoted(olderThan) + "', dry_run => false)");
  }

  /** Flink SQL string literals escape a quote by doubling it. */
  private static String quoted(String value) {
    return value.replace("'", "''");
  }
}
