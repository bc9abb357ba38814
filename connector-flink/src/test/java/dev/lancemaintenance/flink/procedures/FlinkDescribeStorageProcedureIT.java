package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalStorageReport;
import dev.lancemaintenance.report.ReportWindows;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.StorageReportTable;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.sys.describe_storage} and {@code LanceFlinkMaintenance.describeStorage} on the
 * MiniCluster, on the SDK-written report table (a tag, a branch, a deletion, unreferenced files):
 * the rows are the local engine's report, and a window's prediction is what the Flink cleanup with
 * that cut-off then removes.
 */
class FlinkDescribeStorageProcedureIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  /** The sections whose numbers do not depend on the second the report ran. */
  private static final Set<String> COUNTED = Set.of("files", "what_if", "unverified_by_age", "tag", "branch");
  private static final TableStorageFactory STORES = HadoopTableStorage.factory(StorageConf.defaults());

  @TempDir static Path dir;
  private static PristineTable pristine;

  @BeforeAll
  static void writeTable() {
    pristine = PristineTable.keep(StorageReportTable.write(dir.resolve("t")).root(), dir.resolve("pristine"));
  }

  private static String uri() {
    return pristine.table().toUri().toString();
  }

  private static StreamExecutionEnvironment env() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return env;
  }

  private static List<String> counted(List<StorageReport.Row> rows) {
    return rows.stream().filter(row -> COUNTED.contains(row.section()))
        .map(row -> List.of(row.section(), row.name(), row.versions(), row.files(), row.bytes()).toString()).toList();
  }

  private static List<StorageReport.Row> local(String windows) {
    TableLocation location = TableLocation.of(uri());
    return new LocalStorageReport(location, STORES).windows(ReportWindows.parse(windows))
        .report(new LocalCleanupAction(location, STORES, Clock.systemUTC()).errorIfTaggedOldVersions(false).request())
        .rows();
  }

  @Test
  void theProceduresRowsAreTheLocalEnginesReport() throws Exception {
    pristine.restore();
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
    var result = sql.executeSql("CALL lance.sys.describe_storage(`table` => '" + uri()
        + "', windows => '0s,30d', error_if_tagged_old_versions => false)");
    List<StorageReport.Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> collected = result.collect()) {
      collected.forEachRemaining(row -> rows.add(new StorageReport.Row((String) row.getField(0), (String) row.getField(1),
          (Long) row.getField(2), (Long) row.getField(3), (Long) row.getField(4), (String) row.getField(5))));
    }

    assertThat(result.getResolvedSchema().getColumnNames()).as("columns, as Spark's")
        .containsExactly("section", "name", "versions", "files", "bytes", "detail");
    assertThat(counted(rows)).as("the counted sections").isNotEmpty().containsExactlyElementsOf(counted(local("0s,30d")));
  }

  @Test
  void theReportsPredictionIsWhatTheFlinkCleanupThenRemoves() {
    pristine.restore();
    Instant now = Instant.ofEpochMilli(Instant.now().plusSeconds(60).toEpochMilli());
    Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    StorageReport report = LanceFlinkMaintenance.describeStorage(env(), uri(),
        Map.of(CleanupOption.ERROR_IF_TAGGED_OLD_VERSIONS, false), List.of(Duration.ZERO), Map.of(), clock);
    StorageReport.WindowResult predicted = report.windows().get(0);

    CleanupResult removed = FlinkTestCluster.cleanup(uri()).errorIfTaggedOldVersions(false).beforeTimestamp(now).execute();

    assertThat(predicted.refusal()).as("refusal").isEmpty();
    assertThat(predicted.freed().bytes()).as("bytes").isPositive().isEqualTo(removed.counters().bytesRemoved());
    assertThat(predicted.freed().files()).as("files").isEqualTo(removed.namedCounters().entrySet().stream()
        .filter(counter -> counter.getKey().endsWith("_files_removed")).mapToLong(Map.Entry::getValue).sum());
    assertThat(predicted.versionsRemoved()).as("versions").isEqualTo(removed.counters().oldVersions());
  }

  @Test
  void theArgumentsAreTableWindowsAndTheCataloguesPolicyOptions() {
    List<String> expected = new ArrayList<>(List.of("table", "windows"));
    CleanupOption.policyOptions().forEach(option -> expected.add(option.sqlName()));

    List<String> fleet = new ArrayList<>(List.of("root", "pattern"));
    CleanupOption.policyOptions().forEach(option -> fleet.add(option.sqlName()));

    assertThat(ProcedureHints.names(FlinkDescribeStorageProcedure.class)).isEqualTo(expected);
    assertThat(ProcedureHints.namesAndTypes(FlinkDescribeStorageProcedure.class).subList(2, expected.size()))
        .as("the policy arguments' types, as sys.cleanup_files declares them")
        .isEqualTo(ProcedureHints.namesAndTypes(FlinkCleanupFilesProcedure.class).subList(1, expected.size() - 1));
    assertThat(ProcedureHints.names(FlinkDescribeStorageAllProcedure.class)).as("describe_storage_all").isEqualTo(fleet);
    assertThat(ProcedureHints.namesAndTypes(FlinkDescribeStorageAllProcedure.class).subList(2, fleet.size()))
        .isEqualTo(ProcedureHints.namesAndTypes(FlinkCleanupFilesProcedure.class).subList(1, fleet.size() - 1));
  }

  @Test
  void aRunSettingIsAnErrorNamingIt() {
    assertThatThrownBy(() -> LanceFlinkMaintenance.describeStorage(env(), uri(), Map.of(CleanupOption.DRY_RUN, true),
            List.of(Duration.ZERO), Map.of(), Clock.systemUTC()))
        .hasMessageContaining("dry_run");
  }
}
