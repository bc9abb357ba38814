package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.spark.SparkTestSession;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.maintenance_history(table)} after {@code CALL lance.cleanup}: the run the cleanup
 * recorded (on Spark's engine, distributed), with the counters its row returned.
 */
class MaintenanceHistoryProcedureIT {
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

  @Test
  void theHistoryShowsTheCleanupsRunWithItsCounters() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    table.append(5);
    table.overwrite(5);
    String t = "table => '" + table.uri() + "'";
    assertThat(spark.sql("CALL lance.maintenance_history(" + t + ")").collectAsList()).as("before any run").isEmpty();

    Row cleaned = spark.sql("CALL lance.cleanup(" + t + ", older_than => '0s')").collectAsList().get(0);
    List<Row> history = spark.sql("CALL lance.maintenance_history(" + t + ", limit => 5)").collectAsList();

    assertThat(history).hasSize(1);
    Row run = history.get(0);
    assertThat(run.schema().fieldNames()).containsExactlyElementsOf(RunEntry.COLUMNS.stream().map(RunEntry.Column::name).toList());
    assertThat(run.<String>getAs("state")).isEqualTo("finished");
    assertThat(run.<String>getAs("engine")).isEqualTo("spark");
    assertThat(run.<String>getAs("mark_mode")).isEqualTo("full");
    assertThat(run.<Long>getAs("manifests_read")).isEqualTo(3L);
    assertThat(run.<java.sql.Timestamp>getAs("ended_at")).isAfterOrEqualTo(run.<java.sql.Timestamp>getAs("started_at"));
    for (String counter : CleanupResult.counterNames()) {
      assertThat(run.<Long>getAs(counter)).as(counter).isEqualTo(cleaned.<Long>getAs(counter));
    }
    assertThat(run.<Long>getAs("old_versions")).isEqualTo(2L);
    assertThat(run.isNullAt(run.fieldIndex("error"))).isTrue();
    assertThatThrownBy(() -> spark.sql("CALL lance.maintenance_history(" + t + ", limit => 0)").collect())
        .hasMessageContaining("'limit' must be at least 1");
  }
}
