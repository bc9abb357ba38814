package dev.lancemaintenance.benchmarks;

import org.apache.spark.sql.SparkSession;

/**
 * {@code CALL lance.cleanup(...)} in one warm {@code local[2]} session, created before the first
 * timed run as a notebook user's session would be.
 */
final class SparkCallCleanup implements Contender {
  private final SparkSession spark;

  SparkCallCleanup(java.util.Map<String, String> hadoopOptions) {
    SparkSession.Builder builder = SparkSession.builder()
        .master("local[2]")
        .appName("lance-maintenance-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.catalog.lance", "dev.lancemaintenance.spark.procedures.LanceProcedureCatalog");
    hadoopOptions.forEach((key, value) -> builder.config("spark.hadoop." + key, value));
    this.spark = builder.getOrCreate();
  }

  @Override
  public String name() {
    return "spark-call";
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    // older_than => '0s': no age limit, as the SDK's policy (our default is 7 days).
    spark.sql("CALL lance.cleanup(table => '" + table.hadoopUri() + "', older_than => '0s', before_version => "
            + beforeVersion + ")")
        .collectAsList();
    return -1;
  }

  @Override
  public void close() {
    spark.stop();
  }
}
