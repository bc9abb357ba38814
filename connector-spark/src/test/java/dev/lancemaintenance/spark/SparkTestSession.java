package dev.lancemaintenance.spark;

import java.time.Clock;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The tests' Spark sessions: local mode, no UI, few shuffle partitions, CALL lance.*, and every
 * cleanup distributed as Spark jobs (test tables are small enough for the driver path, which the
 * tests that want it ask for with {@code distribute_above}). A test class registers one session
 * for all its tests with {@link SparkSessionPerClass}.
 */
public final class SparkTestSession {
  private static final String EXTENSIONS = "dev.lancemaintenance.spark.extensions.LanceMaintenanceSparkExtensions";

  private SparkTestSession() {}

  /** {@code local[2]}: two executor threads, no task retries. */
  public static SparkSession start() {
    return start("local[2]");
  }

  /** @param master e.g. {@code local[2,3]} for two threads and up to three attempts per task */
  public static SparkSession start(String master) {
    return SparkSession.builder()
        .master(master)
        .appName("lance-maintenance tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "4")
        .config(procedures().getKey(), procedures().getValue())
        .config(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF, "0")
        .getOrCreate();
  }

  /**
   * The setting that gives the session {@code CALL lance.*}: the session extension where it is on
   * the class path (the Spark 3.5 lines), else Spark 4's procedure catalog.
   */
  public static Map.Entry<String, String> procedures() {
    try {
      Class.forName(EXTENSIONS);
      return Map.entry("spark.sql.extensions", EXTENSIONS);
    } catch (ClassNotFoundException e) {
      return Map.entry("spark.sql.catalog.lance", "dev.lancemaintenance.spark.procedures.LanceProcedureCatalog");
    }
  }

  /**
   * A cleanup of {@code tableUri} through the notebook API, with slices of two manifests and three
   * partitions so that every test table crosses slice and partition boundaries; no policy set yet.
   */
  public static SparkCleanupAction cleanup(SparkSession spark, String tableUri) {
    return LanceMaintenance.of(spark, Clock.systemUTC()).cleanup(tableUri).sliceSize(2).partitions(3);
  }
}
