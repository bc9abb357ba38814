package dev.lancemaintenance.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Flink job and Flink SQL examples clean a demo table on a local Flink environment. */
class FlinkExamplesIT {
  @TempDir Path dir;

  @Test
  void flinkJobExampleRemovesEveryVersionButTheLatest() {
    String table = DemoTables.write(dir);
    long filesBefore = DemoTables.files(table);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);

    CleanupResult result = FlinkJobExample.cleanup(env, table, Duration.ZERO);

    assertThat(result.counters().oldVersions()).isEqualTo(DemoTables.VERSIONS - 1);
    assertThat(result.counters().failedDeletes()).isZero();
    assertThat(filesBefore - DemoTables.files(table)).isEqualTo(SparkExamplesIT.removedFiles(result));
    assertThat(DemoTables.versions(table)).containsExactly(DemoTables.VERSIONS);
    assertThat(DemoTables.rows(table)).isEqualTo(DemoTables.ROWS);
  }

  @Test
  void flinkSqlExampleReturnsTheCounterRowOfTheCleanup() throws Exception {
    String table = DemoTables.write(dir);
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());

    TableResult result = FlinkSqlExample.cleanup(sql, table, "0s");
    List<String> columns = result.getResolvedSchema().getColumnNames();
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = result.collect()) {
      it.forEachRemaining(rows::add);
    }

    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getField(columns.indexOf("old_versions"))).isEqualTo(DemoTables.VERSIONS - 1);
    assertThat(rows.get(0).getField(columns.indexOf("failed_deletes"))).isEqualTo(0L);
    assertThat(DemoTables.versions(table)).containsExactly(DemoTables.VERSIONS);
  }
}
