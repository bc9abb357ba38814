package dev.lancemaintenance.examples;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.spark.LanceMaintenance;
import java.time.Duration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Cleanup from a Java notebook (or any Spark job): the fluent {@link LanceMaintenance} API needs no
 * catalog and no SQL extension. First a dry run shows what would go, then the real run removes it.
 *
 * <p>Run: {@code bin/lance-maintenance example java-notebook [table]}.
 */
public final class JavaNotebookExample {
  private JavaNotebookExample() {}

  public static void main(String[] args) {
    String table = ExampleTable.fromArgs(args, "java-notebook-example");
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("lance-maintenance Java notebook example")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    try {
      CleanupResult result = cleanup(spark, table, Duration.ZERO);
      System.out.println(result.namedCounters());
    } finally {
      spark.stop();
    }
  }

  /** Shows the files a cleanup would remove, then runs it and returns its counters. */
  public static CleanupResult cleanup(SparkSession spark, String table, Duration olderThan) {
    Dataset<Row> wouldGo =
        LanceMaintenance.of(spark).cleanup(table).olderThan(olderThan).dryRun(true).toDataset();
    // One row per file (path, kind, bytes, reason), computed on the executors as it is read.
    wouldGo.groupBy("kind").sum("bytes").show(false);

    return LanceMaintenance.of(spark).cleanup(table).olderThan(olderThan).execute();
  }
}
