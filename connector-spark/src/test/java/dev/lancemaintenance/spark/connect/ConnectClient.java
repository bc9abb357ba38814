package dev.lancemaintenance.spark.connect;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;

/**
 * A Spark Connect client application: its own JVM whose class path is the JVM Connect client
 * ({@code spark-connect-client-jvm}) and what it needs of a Spark distribution, none of Spark's
 * SQL engine and none of our classes. It runs SQL statements on a server, one after the other, and
 * prints what the test checks: each row the statement returns, or the error that reached it.
 *
 * <p>Arguments: the server's {@code sc://} URL, then the statements.
 */
public final class ConnectClient {
  /** Prefix of a result row: the statement's index, a space, {@code column=value} separated by tabs. */
  public static final String ROW = "CONNECT-ROW ";
  /** Prefix of a statement's error: its index, a space, the exception's class and first line. */
  public static final String ERROR = "CONNECT-ERROR ";

  private ConnectClient() {}

  public static void main(String[] args) throws Exception {
    // remote(...) makes the builder create a Connect session (Spark 4's API mode "connect").
    try (SparkSession spark = SparkSession.builder().remote(args[0]).getOrCreate()) {
      for (int i = 1; i < args.length; i++) {
        try {
          for (Row row : spark.sql(args[i]).collectAsList()) {
            System.out.println(ROW + i + " " + format(row));
          }
        } catch (Exception e) {
          System.out.println(ERROR + i + " " + e.getClass().getName() + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
      }
    }
  }

  private static String format(Row row) {
    List<StructField> fields = List.of(row.schema().fields());
    return fields.stream().map(f -> f.name() + "=" + row.getAs(f.name())).collect(Collectors.joining("\t"));
  }
}
