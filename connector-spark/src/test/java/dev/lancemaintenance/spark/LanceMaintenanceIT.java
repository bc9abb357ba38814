package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The notebook API: {@code LanceMaintenance.of(SPARK.session()).cleanup(uri)...execute()} and its Dataset. */
class LanceMaintenanceIT {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @TempDir Path dir;

  private LanceTableFixture table() {
    return tableAt("t.lance");
  }

  @Test
  void recordFilesWritesAPartPerSweepTaskOnTheExecutorsThatAddsUpToTheRow() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    table.append(5);
    table.overwrite(5);
    SPARK.session().conf().set(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF, "0");
    Row cleaned;
    try {
      cleaned = SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', record_files => true)")
          .collectAsList().get(0);
    } finally {
      SPARK.session().conf().unset(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF);
    }

    Row run = SPARK.sql("CALL lance.maintenance_history(table => '" + table.uri() + "')").collectAsList().get(0);
    List<RecordedFiles.WholePart> parts;
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(table.uri()))) {
      parts = new RecordedFiles(run.<String>getAs("files")).read(storage);
    }
    CleanupCounters recorded = CleanupCounters.ZERO;
    for (RecordedFiles.WholePart part : parts) {
      for (CandidateFile file : part.files()) {
        recorded = recorded.record(file);
      }
    }
    assertThat(cleaned.<Long>getAs("old_versions")).isEqualTo(2L);
    assertThat(recorded.named()).as("the recorded files' counters are the row's")
        .allSatisfy((name, value) -> assertThat(cleaned.<Long>getAs(name)).as(name).isEqualTo(value));
    assertThat(parts).extracting(RecordedFiles.WholePart::task).as("written by the sweep and release tasks")
        .anyMatch(task -> task.startsWith("sweep-")).anyMatch(task -> task.startsWith("release-"));
    assertThat(run.<Long>getAs("file_parts")).isEqualTo((long) parts.size());
  }

  @Test
  void callMaintenanceHistoryShowsTheCleanupsRunAsTheJavaApiReadsIt() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    table.append(5);
    table.overwrite(5);
    String t = "table => '" + table.uri() + "'";
    assertThat(SPARK.sql("CALL lance.maintenance_history(" + t + ")").collectAsList()).as("before any run").isEmpty();

    Row cleaned = SPARK.sql("CALL lance.cleanup(" + t + ", older_than => '0s')").collectAsList().get(0);
    List<Row> history = SPARK.sql("CALL lance.maintenance_history(" + t + ", limit => 5)").collectAsList();

    assertThat(history).hasSize(1);
    assertThat(LanceMaintenance.of(SPARK.session()).history(table.uri(), Map.of(), 5)).singleElement()
        .satisfies(entry -> assertThat(entry.start().runId()).isEqualTo(history.get(0).<String>getAs("run_id")));
    Row run = history.get(0);
    assertThat(run.schema().fieldNames()).containsExactlyElementsOf(RunEntry.COLUMNS.stream().map(RunEntry.Column::name).toList());
    assertThat(run.<String>getAs("state")).isEqualTo("finished");
    assertThat(run.<String>getAs("engine")).isEqualTo("spark");
    assertThat(run.<String>getAs("mark_mode")).isEqualTo("full");
    assertThat(run.<Long>getAs("manifests_read")).isEqualTo(3L);
    assertThat(cleaned.<Long>getAs("manifests_read")).as("the CALL row's").isEqualTo(3L);
    assertThat(cleaned.<String>getAs("mark_mode")).as("the CALL row's").isEqualTo("full");
    assertThat(run.<java.sql.Timestamp>getAs("ended_at")).isAfterOrEqualTo(run.<java.sql.Timestamp>getAs("started_at"));
    for (String counter : CleanupResult.counterNames()) {
      assertThat(run.<Long>getAs(counter)).as(counter).isEqualTo(cleaned.<Long>getAs(counter));
    }
    assertThat(run.<Long>getAs("old_versions")).isEqualTo(2L);
    assertThat(run.isNullAt(run.fieldIndex("error"))).isTrue();
    assertThatThrownBy(() -> SPARK.sql("CALL lance.maintenance_history(" + t + ", limit => 0)").collect())
        .hasMessageContaining("'limit' must be at least 1");
  }
  @Test
  void theRetentionGuardRefusesAShortDeleteUnverifiedUntilLiftedExplicitly() {
    LanceTableFixture table = table();
    List<String> before = table.listFiles();

    assertThatThrownBy(() -> LanceMaintenance.of(SPARK.session()).cleanup(table.uri())
            .olderThan(Duration.ZERO).deleteUnverified(true).execute())
        .isInstanceOf(MaintenanceException.class)
        .hasMessageContaining("retention guard").hasMessageContaining(".allowShortRetention(true)");
    assertThat(table.listFiles()).isEqualTo(before);

    CleanupResult lifted = LanceMaintenance.of(SPARK.session()).cleanup(table.uri())
        .olderThan(Duration.ZERO).deleteUnverified(true).allowShortRetention(true).execute();
    assertThat(lifted.counters().oldVersions()).isPositive();
  }

  @Test
  void anOptionMapIsCheckedAgainstTheCatalogueBeforeAnythingIsRead() {
    LanceTableFixture table = table();
    List<String> before = table.listFiles();

    assertThatThrownBy(() -> LanceMaintenance.of(SPARK.session()).cleanup(table.uri())
            .options(Map.of("older_than", "0s", "dryrun", "true")).execute())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'dryrun'").hasMessageContaining("dry_run");
    assertThat(table.listFiles()).isEqualTo(before);

    CleanupResult dry = LanceMaintenance.of(SPARK.session()).cleanup(table.uri())
        .options(Map.of("older_than", "0s", "dry_run", "true")).execute();
    assertThat(dry.mode()).isEqualTo(CleanupMode.DRY_RUN);
    assertThat(table.listFiles()).isEqualTo(before);
  }

  @Test
  void dryRunReportsWithoutDeleting() {
    LanceTableFixture table = table();
    List<String> before = table.listFiles();

    CleanupResult result =
        LanceMaintenance.of(SPARK.session()).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).execute();

    assertThat(result.mode()).isEqualTo(CleanupMode.DRY_RUN);
    assertThat(result.counters().oldVersions()).isEqualTo(3);
    assertThat(table.listFiles()).as("files after a dry run").containsExactlyInAnyOrderElementsOf(before);
  }

  @Test
  void dryRunDatasetHasOneRowPerFileTheCountersCount() {
    LanceTableFixture table = table();
    CleanupResult counted =
        LanceMaintenance.of(SPARK.session()).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).execute();

    Dataset<Row> files =
        LanceMaintenance.of(SPARK.session()).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).toDataset();

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
    List<String> heard = new ArrayList<>();

    LanceMaintenance.of(SPARK.session()).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true)
        .onRemovedFile(file -> heard.add(file.path()))
        .execute();
    List<String> listed =
        LanceMaintenance.of(SPARK.session()).cleanup(table.uri()).olderThan(Duration.ZERO).dryRun(true).toDataset()
            .select("path").as(org.apache.spark.sql.Encoders.STRING()).collectAsList();

    assertThat(heard).isNotEmpty().containsExactlyInAnyOrderElementsOf(listed);
  }

  @Test
  void executedDatasetIsTheCounterRow() {
    LanceTableFixture table = table();

    List<Row> rows =
        LanceMaintenance.of(SPARK.session()).cleanup(table.uri()).olderThan(Duration.ZERO).toDataset().collectAsList();

    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).<Long>getAs("old_versions")).isEqualTo(3L);
    assertThat(table.versions()).containsExactly(4L);
  }

  @Test
  void smallTablesAreCleanedInTheDriverLikeTheJobsCleanThem() throws InterruptedException {
    LanceTableFixture inDriver = tableAt("in-driver");
    LanceTableFixture asJobs = tableAt("as-jobs");
    SparkJobsSeen jobs = SparkJobsSeen.listenTo(SPARK.session());
    try {
      CleanupResult driverResult =
          LanceMaintenance.of(SPARK.session()).cleanup(inDriver.uri()).olderThan(Duration.ZERO).distributeAbove(4).execute();
      assertThat(jobs.seenUntilBarrier(SPARK.session())).as("Spark jobs of a cleanup in the driver").isEmpty();

      CleanupResult jobsResult =
          LanceMaintenance.of(SPARK.session()).cleanup(asJobs.uri()).olderThan(Duration.ZERO).distributeAbove(3).execute();
      List<String> distributed = jobs.seenUntilBarrier(SPARK.session());
      assertThat(distributed).as("Spark jobs of a distributed cleanup").isNotEmpty()
          .allMatch(job -> job.matches("lance-cleanup-\\S+ lance cleanup \\S*as-jobs\\S* \\[\\d(-\\d)?/6 [a-z, ]+\\]: .+"))
          .anyMatch(job -> job.contains(" [" + CleanupStage.MARK.label() + "]: "));

      assertThat(driverResult.counters().oldVersions()).isEqualTo(3);
      // Twin tables of the same recipe: the same files go, though their names and sizes differ.
      assertThat(filesRemovedByKind(driverResult)).isEqualTo(filesRemovedByKind(jobsResult));
      assertThat(inDriver.versions()).containsExactly(4L);
      assertThat(asJobs.versions()).containsExactly(4L);
      assertThat(inDriver.listFiles()).hasSameSizeAs(asJobs.listFiles());
    } finally {
      jobs.stopListening(SPARK.session());
    }
  }

  /** Three appends and an overwrite: versions 1-3 expire, version 4 stays. */
  private LanceTableFixture tableAt(String name) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve(name));
    for (int i = 0; i < 3; i++) {
      table.append(10);
    }
    table.overwrite(10);
    return table;
  }

  private static Map<String, Long> filesRemovedByKind(CleanupResult result) {
    Map<String, Long> counters = new HashMap<>(result.counters().named());
    counters.remove("bytes_removed");
    return counters;
  }
}
