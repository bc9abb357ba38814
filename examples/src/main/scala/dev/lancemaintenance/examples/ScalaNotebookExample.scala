package dev.lancemaintenance.examples

import dev.lancemaintenance.cleanup.CleanupResult
import dev.lancemaintenance.spark.LanceMaintenance
import java.time.Duration
import org.apache.spark.sql.SparkSession

/**
 * Cleanup from a Scala notebook (Databricks, EMR, Zeppelin): the same fluent API as from Java.
 * In a notebook `spark` already exists; only the body of `cleanup` is needed.
 *
 * Run: `bin/lance-maintenance example scala-notebook [table]`.
 */
object ScalaNotebookExample {
  def main(args: Array[String]): Unit = {
    val table = ExampleTable.fromArgs(args, "scala-notebook-example")
    val spark = SparkSession.builder()
      .master("local[2]")
      .appName("lance-maintenance Scala notebook example")
      .config("spark.ui.enabled", "false")
      .getOrCreate()
    try println(cleanup(spark, table, Duration.ZERO).namedCounters())
    finally spark.stop()
  }

  /** Lists what would go (dry run), then removes the versions older than `olderThan`. */
  def cleanup(spark: SparkSession, table: String, olderThan: Duration): CleanupResult = {
    val maintenance = LanceMaintenance.of(spark)
    maintenance.cleanup(table).olderThan(olderThan).dryRun(true).toDataset()
      .select("path", "kind", "bytes")
      .show(20, false)
    maintenance.cleanup(table).olderThan(olderThan).execute()
  }
}
