package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.flink.TableCopies;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.ConformanceScenarios;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code CALL lance.sys.cleanup(...)} through a Flink {@link TableEnvironment}. */
class FlinkCleanupProcedureIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir static Path workDir;
  private static TableCopies table;
  private static final String CUTOFF = Instant.now().plus(Duration.ofMinutes(1)).toString();

  private TableEnvironment sql;

  @BeforeAll
  static void writeTable() {
    table = TableCopies.keep(ConformanceScenarios.deletes(workDir).table().root(), workDir.resolve("pristine"));
  }

  @BeforeEach
  void catalog() {
    table.restore();
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
  }

  @Test
  void callReturnsTheCountersOfTheLocalEngine() {
    TableResult result =
        sql.executeSql("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + CUTOFF + "')");
    List<String> names = result.getResolvedSchema().getColumnNames();
    List<Row> rows = rows(result);
    TreeSet<String> flinkFiles = table.files();

    table.restore();
    CleanupResult local =
        new LocalCleanupAction(
                TableLocation.of(table.table().toString()),
                HadoopTableStorage.factory(StorageConf.defaults()),
                Clock.systemUTC())
            .beforeTimestamp(Instant.parse(CUTOFF))
            .execute();

    assertThat(rows).hasSize(1);
    assertThat(withoutDuration(columns(names, rows.get(0)))).as("SQL row vs local engine")
        .isEqualTo(withoutDuration(local.namedCounters()));
    assertThat(flinkFiles).as("files left by CALL vs the local engine").isEqualTo(table.files());
  }

  @Test
  void outputColumnsAreTheResultNamesInOrder() {
    TableResult result = sql.executeSql(
        "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + CUTOFF + "', dry_run => true)");
    List<String> columns = result.getResolvedSchema().getColumnNames();
    rows(result);

    assertThat(columns).isEqualTo(new ArrayList<>(dummyResult().namedCounters().keySet()));
    assertThat(table.files()).as("a dry run through SQL deletes nothing").isEqualTo(table.pristineFiles());
  }

  @Test
  void cleanupFilesListsTheFilesARealRunDeletes() {
    List<Row> files = rows(sql.executeSql(
        "CALL lance.sys.cleanup_files(`table` => '" + table.table() + "', older_than => '" + CUTOFF + "')"));
    TreeSet<String> listed = new TreeSet<>();
    files.forEach(row -> listed.add((String) row.getField(0)));
    assertThat(table.files()).as("cleanup_files deletes nothing").isEqualTo(table.pristineFiles());

    rows(sql.executeSql("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + CUTOFF + "')"));
    TreeSet<String> deleted = table.pristineFiles();
    deleted.removeAll(table.files());
    assertThat(listed).as("files listed vs files then deleted").isNotEmpty().isEqualTo(deleted);
  }

  @Test
  void experimentMisspelt() {
    for (String call : List.of(
        "CALL lance.sys.cleanup(`table` => 'TBL', older_than => '0s', dryrun => true)",
        "CALL lance.sys.cleanup(`table` => 'TBL', older_than => '0s', dry_run => NULL)",
        "CALL lance.sys.cleanup(`table` => 'TBL', older_than => '0s', dry_run => true, dry_run => false)",
        "CALL lance.sys.cleanup('TBL', '0s', NULL, false, true, false, NULL)")) {
      try {
        rows(sql.executeSql(call.replace("TBL", "/nonexistent/x")));
        System.err.println("EXPERIMENT ran: " + call);
      } catch (Exception e) {
        System.err.println("EXPERIMENT " + call + " -> " + e);
      }
    }
  }

  private static CleanupResult dummyResult() {
    return new CleanupResult("t", CleanupMode.EXECUTE, 0, CleanupCounters.ZERO, 0);
  }

  private static Map<String, Long> columns(List<String> names, Row row) {
    Map<String, Long> values = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      values.put(names.get(i), (Long) row.getField(i));
    }
    return values;
  }

  private static Map<String, Long> withoutDuration(Map<String, Long> counters) {
    Map<String, Long> copy = new LinkedHashMap<>(counters);
    copy.remove("duration_ms");
    return copy;
  }

  private static List<Row> rows(TableResult result) {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> iterator = result.collect()) {
      iterator.forEachRemaining(rows::add);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }
}
