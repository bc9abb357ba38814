package dev.lancemaintenance.spark.cluster;

import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.SparkTestSession;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;

/**
 * A Spark application as a user deploys it: its own JVM, whose class path is a Spark distribution
 * and the bundle jar, against a standalone master. It cleans one table through {@code CALL
 * lance.cleanup} and a twin through the notebook API, with every stage as Spark jobs, and prints
 * what the test compares: the counters of each, and which executors ran tasks.
 *
 * <p>Arguments: master URL, cutoff instant, before_version, the table for SQL, the table for the
 * notebook API. Uses only Spark's API, the bundle's public API and {@link SparkTestSession}'s choice
 * of catalog or session extension, so nothing of the test class path but the test classes is needed.
 */
public final class ClusterDriver {
  /** Prefix of the lines with a run's counters: then {@code sql} or {@code notebook}, a space, {@code key=value,...}. */
  public static final String RESULT = "CLUSTER-RESULT ";
  /** Prefix of the line with the ids of the executors that ran tasks. */
  public static final String EXECUTORS = "CLUSTER-EXECUTORS ";

  private ClusterDriver() {}

  public static void main(String[] args) {
    String master = args[0];
    Instant cutoff = Instant.parse(args[1]);
    long beforeVersion = Long.parseLong(args[2]);
    String sqlTable = args[3];
    String notebookTable = args[4];

    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("lance-maintenance cluster test")
            .config(SparkTestSession.procedures().getKey(), SparkTestSession.procedures().getValue())
            .config("spark.lance.cleanup.distributeAbove", "0")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    Set<String> executors = new ConcurrentSkipListSet<>();
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        executors.add(taskEnd.taskInfo().executorId());
      }
    });
    try {
      Map<String, Long> sql = callProcedure(spark, sqlTable, cutoff, beforeVersion);
      Map<String, Long> notebook =
          LanceMaintenance.of(spark).cleanup(notebookTable).beforeTimestamp(cutoff).beforeVersion(beforeVersion)
              .execute().counters().named();
      // Task-end events arrive asynchronously; the listener bus drains before stop() returns.
      spark.stop();
      System.out.println(RESULT + "sql " + format(sql));
      System.out.println(RESULT + "notebook " + format(notebook));
      System.out.println(EXECUTORS + String.join(",", new TreeSet<>(executors)));
    } finally {
      spark.stop();
    }
  }

  private static Map<String, Long> callProcedure(SparkSession spark, String table, Instant cutoff, long beforeVersion) {
    Row row =
        spark.sql(
                "CALL lance.cleanup(table => '" + table + "', older_than => TIMESTAMP '"
                    + cutoff.toString().replace('T', ' ').replace("Z", "") + "', before_version => "
                    + beforeVersion + ")")
            .collectAsList()
            .get(0);
    Map<String, Long> counters = new LinkedHashMap<>();
    for (StructField field : row.schema().fields()) {
      Object value = row.getAs(field.name());
      if (value instanceof Number number) {
        counters.put(field.name(), number.longValue());
      }
    }
    return counters;
  }

  private static String format(Map<String, Long> counters) {
    StringBuilder line = new StringBuilder();
    counters.forEach((k, v) -> line.append(line.length() == 0 ? "" : ",").append(k).append('=').append(v));
    return line.toString();
  }
}
