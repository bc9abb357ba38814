package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.spark.procedures.ResultRows;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notebook API: {@code LanceMaintenance.of(spark).cleanup(uri)...execute()} and its Dataset. */
class LanceMaintenanceIT {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.start();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private LanceTableFixture table() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    for (int i = 0; i < 3; i++) {
      table.append(10);
    }
    table.overwrite(10);
    return table;
  }

  @Test
  void dryRunReportsWithoutDeleting() {
    LanceTableFixture table = table();
    List<String> before = table.listFiles();

    CleanupResult result =
        LanceMaintenance.of(spark).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).execute();

    assertThat(result.mode()).isEqualTo(CleanupMode.DRY_RUN);
    assertThat(result.counters().oldVersions()).isEqualTo(3);
    assertThat(table.listFiles()).as("files after a dry run").containsExactlyInAnyOrderElementsOf(before);
  }

  @Test
  void dryRunDatasetHasOneRowPerFileTheCountersCount() {
    LanceTableFixture table = table();
    CleanupResult counted =
        LanceMaintenance.of(spark).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).execute();

    Dataset<Row> files =
        LanceMaintenance.of(spark).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).toDataset();

    assertThat(files.schema()).isEqualTo(ResultRows.FILE_SCHEMA);
    long removedFiles =
        counted.counters().dataFilesRemoved() + counted.counters().transactionFilesRemoved()
            + counted.counters().manifestFilesRemoved() + counted.counters().deletionFilesRemoved()
            + counted.counters().indexFilesRemoved() + counted.counters().otherFilesRemoved();
    assertThat(files.count()).isEqualTo(removedFiles);
    assertThat(files.agg(functions.sum("bytes")).first().getLong(0)).isEqualTo(counted.counters().bytesRemoved());
    assertThat(files.filter("kind = 'manifest'").count()).isEqualTo(3);
  }

  @Test
  void listenerHearsEveryFileTheDatasetLists() {
    LanceTableFixture table = table();
    List<String> heard = new java.util.ArrayList<>();

    LanceMaintenance.of(spark).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true)
        .onRemovedFile(file -> heard.add(file.path()))
        .execute();
    List<String> listed =
        LanceMaintenance.of(spark).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).toDataset()
            .select("path").as(org.apache.spark.sql.Encoders.STRING()).collectAsList();

    assertThat(heard).isNotEmpty().containsExactlyInAnyOrderElementsOf(listed);
  }

  @Test
  void executedDatasetIsTheCounterRow() {
    LanceTableFixture table = table();

    List<Row> rows = LanceMaintenance.of(spark).cleanup(table.uri()).olderThan(Duration.ZERO).toDataset().collectAsList();

    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).<Long>getAs("old_versions")).isEqualTo(3L);
    assertThat(table.versions()).containsExactly(4L);
  }
}
