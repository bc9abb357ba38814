package dev.lancemaintenance.benchmarks;

import org.apache.spark.sql.SparkSession;

/**
 * {@code CALL lance.cleanup(...)} in one warm {@code local[2]} session, created before the first
 * timed run as a notebook user's session would be; {@code spark-call} marks in full, {@code
 * spark-call-incremental} is the daily run ({@code mode => 'incremental'}) on the ledger and key
 * snapshot of the run the day before ({@link YesterdaysRun}), as {@code local-incremental}.
 */
final class SparkCallCleanup implements Contender {
  private final SparkSession spark;
  /** The day's commits above yesterday's run, for the daily run; empty for the full run. */
  private final java.util.Optional<Integer> newVersions;

  SparkCallCleanup(java.util.Map<String, String> hadoopOptions) {
    this(hadoopOptions, java.util.Optional.empty());
  }

  SparkCallCleanup(java.util.Map<String, String> hadoopOptions, java.util.Optional<Integer> newVersions) {
    this.newVersions = newVersions;
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
    return newVersions.isPresent() ? "spark-call-incremental" : "spark-call";
  }

  @Override
  public void prepare(Table table) {
    newVersions.ifPresent(count -> YesterdaysRun.leave(table, count));
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    // older_than => '0s': no age limit, as the SDK's policy (our default is 7 days).
    spark.sql("CALL lance.cleanup(table => '" + table.hadoopUri() + "', older_than => '0s', before_version => "
            + beforeVersion + (newVersions.isPresent() ? ", mode => 'incremental'" : "") + ")")
        .collectAsList();
    return -1;
  }

  @Override
  public void close() {
    spark.stop();
  }
}
