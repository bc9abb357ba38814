package dev.lancemaintenance.distribution;

import dev.lancemaintenance.UserErrors;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@code sql "<statement>" [--master local[N]] [--conf key=value]...}: runs one Spark SQL statement
 * in a local Spark session with the {@code lance} procedure catalog registered, so {@code CALL
 * lance.cleanup(...)} can be tried from a shell, and prints the result rows as they stream in.
 */
final class SparkSql {
  static final String USAGE =
      "sql \"<statement>\" [--master local[N]] [--conf SPARK_OR_HADOOP_KEY=VALUE]... [--verbose]\n"
          + "      run Spark SQL with the lance catalog, e.g. \"CALL lance.cleanup(table => '/t.lance', older_than => '7d')\"";
  static final String CATALOG = "dev.lancemaintenance.spark.procedures.LanceProcedureCatalog";

  private SparkSql() {}

  /** A local session with the lance catalog; keys not starting with {@code spark.} are Hadoop settings. */
  static SparkSession session(String master, Map<String, String> conf) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .appName("lance-maintenance sql")
            .master(master)
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "8")
            .config("spark.sql.catalog.lance", CATALOG);
    conf.forEach((key, value) -> builder.config(key.startsWith("spark.") ? key : "spark.hadoop." + key, value));
    return builder.getOrCreate();
  }

  static int run(List<String> args, PrintStream out, PrintStream err) {
    List<String> statements = new ArrayList<>();
    String master = "local[*]";
    Map<String, String> conf = new java.util.LinkedHashMap<>();
    boolean verbose = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if ((arg.equals("--master") || arg.equals("--conf")) && i + 1 < args.size()) {
        String value = args.get(++i);
        if (arg.equals("--master")) {
          master = value;
        } else if (value.indexOf('=') > 0) {
          conf.put(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
        } else {
          return usage(err, "--conf takes key=value, not '" + value + "'");
        }
      } else if (arg.equals("--verbose")) {
        verbose = true;
      } else if (arg.startsWith("--")) {
        return usage(err, "Unknown option " + arg);
      } else {
        statements.add(arg);
      }
    }
    if (statements.size() != 1) {
      return usage(err, "sql takes exactly one statement (quote it)");
    }
    SparkSession spark = session(master, conf);
    try {
      print(spark.sql(statements.get(0)), out);
      return 0;
    } catch (Exception e) { // AnalysisException is checked in Java's eyes
      // A mistake in the statement is one line (Spark's messages carry the plan); the trace on request.
      err.println("lance-maintenance: " + UserErrors.message(e));
      if (verbose) {
        e.printStackTrace(err);
      }
      return 1;
    } finally {
      spark.stop();
    }
  }

  /** Prints a header and every row, tab-separated, streaming the rows to this process. */
  static void print(Dataset<Row> result, PrintStream out) {
    out.println(String.join("\t", result.columns()));
    for (Iterator<Row> rows = result.toLocalIterator(); rows.hasNext(); ) {
      Row row = rows.next();
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < row.size(); i++) {
        cells.add(String.valueOf(row.get(i)));
      }
      out.println(cells.stream().collect(Collectors.joining("\t")));
    }
  }

  private static int usage(PrintStream err, String problem) {
    err.println("lance-maintenance: " + problem);
    err.println("usage: lance-maintenance " + USAGE);
    return 2;
  }
}
