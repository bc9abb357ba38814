package dev.lancemaintenance.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.spark.procedures.LanceProcedureCatalog;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Spark SQL, Java and Scala notebook examples clean a demo table in Spark local mode. */
class SparkExamplesIT {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("examples test")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.catalog.lance", LanceProcedureCatalog.class.getName())
            .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @Test
  void sparkSqlExampleReturnsTheCounterRowOfTheCleanup() {
    String table = DemoTables.write(dir);
    long filesBefore = DemoTables.files(table);

    Row row = SparkSqlExample.cleanup(spark, table, "0s");

    assertThat(row.<Long>getAs("old_versions")).isEqualTo(DemoTables.VERSIONS - 1);
    assertThat(row.<Long>getAs("manifest_files_removed")).isEqualTo(DemoTables.VERSIONS - 1);
    assertThat(row.<Long>getAs("data_files_removed")).as("the appends' files").isEqualTo(DemoTables.APPENDS);
    assertThat(row.<Long>getAs("failed_deletes")).isZero();
    assertThat(DemoTables.versions(table)).containsExactly(DemoTables.VERSIONS);
    assertThat(DemoTables.rows(table)).isEqualTo(DemoTables.ROWS);
    assertThat(DemoTables.files(table)).isLessThan(filesBefore);
  }

  @Test
  void javaNotebookExampleDeletesNothingInItsDryRunThenCleans() {
    String table = DemoTables.write(dir);
    long filesBefore = DemoTables.files(table);

    CleanupResult result = JavaNotebookExample.cleanup(spark, table, Duration.ZERO);

    assertThat(result.counters().oldVersions()).isEqualTo(DemoTables.VERSIONS - 1);
    assertThat(filesBefore - DemoTables.files(table))
        .as("files removed, as the counters count them")
        .isEqualTo(removedFiles(result));
    assertThat(DemoTables.versions(table)).containsExactly(DemoTables.VERSIONS);
    assertThat(DemoTables.rows(table)).isEqualTo(DemoTables.ROWS);
  }

  @Test
  void scalaNotebookExampleCleansLikeTheJavaOne() {
    String table = DemoTables.write(dir);
    long filesBefore = DemoTables.files(table);

    CleanupResult result = ScalaNotebookExample.cleanup(spark, table, Duration.ZERO);

    assertThat(result.counters().oldVersions()).isEqualTo(DemoTables.VERSIONS - 1);
    assertThat(filesBefore - DemoTables.files(table)).isEqualTo(removedFiles(result));
    assertThat(DemoTables.versions(table)).containsExactly(DemoTables.VERSIONS);
  }

  static long removedFiles(CleanupResult result) {
    var c = result.counters();
    return c.dataFilesRemoved() + c.deletionFilesRemoved() + c.indexFilesRemoved()
        + c.transactionFilesRemoved() + c.manifestFilesRemoved() + c.otherFilesRemoved();
  }
}
