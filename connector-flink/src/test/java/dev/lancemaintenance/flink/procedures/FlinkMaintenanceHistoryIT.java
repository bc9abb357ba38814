package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.sys.maintenance_history(...)} after {@code CALL lance.sys.cleanup(...,
 * record_files => true)} on the MiniCluster: the run the Flink cleanup recorded, with the counters,
 * mark mode and manifests read its row returned, and the files its sweep subtasks recorded, which
 * add up to the same counters.
 */
class FlinkMaintenanceHistoryIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir Path dir;

  @Test
  void theHistoryShowsTheCleanupsRunWithItsCounters() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    table.append(5);
    table.overwrite(5);
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
    String t = "`table` => '" + table.uri() + "'";

    Row cleaned = FlinkCleanupProcedureIT.rows(sql.executeSql("CALL lance.sys.cleanup(" + t + ", older_than => '0s', dry_run => false, record_files => true)")).get(0);
    TableResult result = sql.executeSql("CALL lance.sys.maintenance_history(" + t + ", `limit` => 5)");
    List<String> columns = result.getResolvedSchema().getColumnNames();
    List<Row> history = FlinkCleanupProcedureIT.rows(result);

    assertThat(columns).containsExactlyElementsOf(RunEntry.COLUMNS.stream().map(RunEntry.Column::name).toList());
    assertThat(history).hasSize(1);
    Row run = history.get(0);
    assertThat(run.getField(columns.indexOf("state"))).isEqualTo("finished");
    assertThat(run.getField(columns.indexOf("engine"))).isEqualTo("flink");
    assertThat((Instant) run.getField(columns.indexOf("ended_at")))
        .isAfterOrEqualTo((Instant) run.getField(columns.indexOf("started_at")));
    List<String> counters = CleanupResult.counterNames();
    for (int i = 0; i < counters.size(); i++) {
      assertThat(run.getField(columns.indexOf(counters.get(i)))).as(counters.get(i)).isEqualTo(cleaned.getField(i));
    }
    assertThat(run.getField(columns.indexOf("old_versions"))).isEqualTo(2L);
    int manifestsRead = CleanupResult.rowNames().indexOf(CleanupResult.MANIFESTS_READ);
    assertThat(cleaned.getField(manifestsRead)).as("the row's manifests_read").isEqualTo(3L);
    assertThat(run.getField(columns.indexOf("manifests_read"))).as("the record's, no longer NULL on Flink").isEqualTo(3L);
    assertThat(cleaned.getField(CleanupResult.rowNames().indexOf(CleanupResult.MARK_MODE))).isEqualTo("full");
    assertThat(run.getField(columns.indexOf("mark_mode"))).isEqualTo("full");
    assertThat(run.getField(columns.indexOf("error"))).isNull();
    assertThat(recordedCounters(table, (String) run.getField(columns.indexOf("files"))).named())
        .as("the files the sweep subtasks recorded add up to the row")
        .allSatisfy((name, value) -> assertThat(cleaned.getField(CleanupResult.rowNames().indexOf(name))).as(name).isEqualTo(value));
  }

  private static CleanupCounters recordedCounters(LanceTableFixture table, String files) {
    CleanupCounters recorded = CleanupCounters.ZERO;
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(table.uri()))) {
      for (RecordedFiles.WholePart part : new RecordedFiles(files).read(storage)) {
        for (CandidateFile file : part.files()) {
          recorded = recorded.record(file);
        }
      }
    }
    return recorded;
  }
}
