package dev.lancemaintenance.benchmarks;

import org.apache.spark.sql.SparkSession;

/**
 * The application of the {@code spark-cluster} contender, in a JVM of its own whose class path is a
 * Spark distribution's {@code jars/} and the bundle jar (and this class): a session against the
 * standalone master, then one {@code CALL lance.cleanup}, timed from the statement to its row.
 * Prints {@link #CALL_MS} and the duration; uses Spark's API only.
 *
 * <p>Arguments: master URL, table, before_version.
 */
public final class SparkClusterDriver {
  /** Prefix of the line with the {@code CALL}'s duration in milliseconds. */
  public static final String CALL_MS = "CALL-MS ";

  private SparkClusterDriver() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master(args[0]).appName("lance-maintenance benchmark").getOrCreate();
    try {
      long start = System.nanoTime();
      // older_than => '0s': no age limit, as the SDK's policy (our default is 7 days).
      spark.sql("CALL lance.cleanup(table => '" + args[1] + "', older_than => '0s', before_version => " + args[2] + ")")
          .collectAsList();
      System.out.println(CALL_MS + (System.nanoTime() - start) / 1_000_000);
    } finally {
      spark.stop();
    }
  }
}
