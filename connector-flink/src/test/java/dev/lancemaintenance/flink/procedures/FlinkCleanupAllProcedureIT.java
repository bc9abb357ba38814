package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.fleet.FleetContract;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code CALL lance.sys.cleanup_all(root => ..., older_than => ..., dry_run => ...)}, {@code
 * sys.describe_storage_all} and {@code sys.optimize_all} in Flink SQL on the MiniCluster: the fleet
 * contract (small tables in one job, a subtask each).
 */
class FlinkCleanupAllProcedureIT extends FleetContract {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  private static TableResult call(String call) {
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
    return sql.executeSql(call);
  }

  @Override
  protected List<TableOutcome> cleanupAll(String rootUri, Map<String, String> options) throws Exception {
    return outcomes("CALL lance.sys.cleanup_all(root => '" + rootUri + "', " + literals(options) + ")");
  }

  @Override
  protected List<TableOutcome> describeAll(String rootUri, Map<String, String> options) throws Exception {
    String arguments = options.entrySet().stream()
        .map(e -> e.getKey() + " => " + (e.getKey().startsWith("error_if") ? e.getValue() : "'" + e.getValue() + "'"))
        .collect(Collectors.joining(", "));
    return outcomes("CALL lance.sys.describe_storage_all(root => '" + rootUri + "', " + arguments + ")");
  }

  @Override
  protected List<TableOutcome> optimizeAll(String rootUri, Map<String, String> options) throws Exception {
    return outcomes("CALL lance.sys.optimize_all(root => '" + rootUri + "', " + literals(options) + ")");
  }

  /**
   * {@code name => literal, ...}: numbers and booleans as they are (Flink types the procedures'
   * arguments: {@code retain_last => '4'} is no call), every other value as a string.
   */
  private static String literals(Map<String, String> options) {
    return options.entrySet().stream()
        .map(e -> e.getKey() + " => " + (e.getValue().matches("-?[0-9]+|true|false") ? e.getValue() : "'" + e.getValue() + "'"))
        .collect(Collectors.joining(", "));
  }

  /** A fleet call's rows as outcomes. */
  private static List<TableOutcome> outcomes(String fleetCall) throws Exception {
    TableResult result = call(fleetCall);
    List<String> columns = result.getResolvedSchema().getColumnNames();
    List<TableOutcome> outcomes = new ArrayList<>();
    try (CloseableIterator<Row> rows = result.collect()) {
      rows.forEachRemaining(row -> outcomes.add(outcome(row, columns)));
    }
    return outcomes;
  }

  private static TableOutcome outcome(Row row, List<String> columns) {
    Map<String, Long> counters = new LinkedHashMap<>();
    for (int i = 2; i < columns.size() - 1; i++) {
      if (row.getField(i) != null) {
        counters.put(columns.get(i), (Long) row.getField(i));
      }
    }
    return new TableOutcome((String) row.getField(0), TableStatus.valueOf(((String) row.getField(1)).toUpperCase(Locale.ROOT)),
        counters, (String) row.getField(columns.size() - 1));
  }

  /**
   * Where the fleet splits: at the call's {@code distribute_above}, else at the table environment's
   * {@value DistributeAbove#FLINK_SETTING} (in the table config, as the SQL client's {@code SET} puts
   * it), else at {@value DistributeAbove#DEFAULT}. With 0 each
   * table runs as its own cleanup job after the fleet's job (three jobs for two tables); above the
   * tables' versions they run in the fleet's job alone. Each table ends as the SDK's cleanup of its
   * twin every way.
   */
  @Test
  void theFleetSplitsAtTheCallsDistributeAboveElseTheSessionsSetting(@InjectClusterClient ClusterClient<?> flink)
      throws Exception {
    Path pristine = workDir().resolve("split-pristine");
    for (String name : List.of("a.lance", "b.lance")) {
      LanceTableFixture table = LanceTableFixture.create(pristine.resolve(name));
      table.append(10);
      table.append(10);
      table.deleteWhere("id < 5");
    }
    Instant cutoff = Instant.now().plusSeconds(60);
    Path twins = workDir().resolve("split-twins");
    TableTwins.copy(pristine, twins);
    for (String name : List.of("a.lance", "b.lance")) {
      assertThat(LanceOracle.cleanup(twins.resolve(name), OraclePolicy.builder().beforeTimestamp(cutoff).build()))
          .isInstanceOf(OracleOutcome.Removed.class);
    }
    String[][] runs = {
        {null, "", "1"}, {null, ", distribute_above => 0", "3"}, {"0", "", "3"}, {"0", ", distribute_above => 5000", "1"},
        {"100", "", "1"}};
    int round = 0;
    for (String[] run : runs) {
      Path root = workDir().resolve("split-" + ++round);
      TableTwins.copy(pristine, root);
      TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
      sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
      if (run[0] != null) {
        sql.getConfig().set(DistributeAbove.FLINK_SETTING, run[0]);
      }
      String call = "CALL lance.sys.cleanup_all(root => '" + root.toUri() + "', older_than => '" + cutoff
          + "', dry_run => false" + run[1] + ")";
      int jobsBefore = flink.listJobs().get().size();
      List<Row> rows = new ArrayList<>();
      try (CloseableIterator<Row> collected = sql.executeSql(call).collect()) {
        collected.forEachRemaining(rows::add);
      }
      String what = "session " + run[0] + ", " + call;
      assertThat(rows).as(what).hasSize(2).allSatisfy(row -> assertThat(row.getField(1)).as(what).isEqualTo("ok"));
      assertThat(flink.listJobs().get().size() - jobsBefore).as("jobs of %s", what).isEqualTo(Integer.parseInt(run[2]));
      for (String name : List.of("a.lance", "b.lance")) {
        assertThat(LanceTableFixture.open(root.resolve(name)).listFiles()).as("%s after %s against the SDK's twin", name, what)
            .isEqualTo(LanceTableFixture.open(twins.resolve(name)).listFiles());
      }
    }
  }

  /**
   * Large tables cleaned daily: a subtask runs a table above {@code distribute_above} itself when
   * its daily run decodes few versions, so the fleet's job is the call's only one; a table deferred
   * to the client runs as a cleanup job of its own.
   */
  @Test
  void dailyRunsOfLargeTablesRunOnTheFleetsSubtasksWhenFewVersionsAreNew(@InjectClusterClient ClusterClient<?> flink)
      throws Exception {
    // Asked once before the first call, then after each call, which submits the fleet's one job.
    int[] jobsSeen = {-1};
    dailyRunsOfLargeTablesGoToWorkersWhenFewVersionsAreNew("flink", () -> {
      int jobs = flink.listJobs().get().size();
      int cleanupJobs = jobsSeen[0] < 0 ? 0 : jobs - jobsSeen[0] - 1;
      jobsSeen[0] = jobs;
      return cleanupJobs;
    });
  }

  @Test
  void theColumnsAreTableStatusTheCleanupCountersAndErrorAndTheDryRunMustBeGiven() {
    List<String> expected = new ArrayList<>(List.of("table", "status"));
    expected.addAll(CleanupResult.counterNames());
    expected.add("error");
    assertThat(call("CALL lance.sys.cleanup_all(root => '" + workDir().toUri() + "', `pattern` => 'none-*',"
            + " older_than => '7d', dry_run => true)").getResolvedSchema().getColumnNames())
        .isEqualTo(expected);
    assertThatThrownBy(() -> call("CALL lance.sys.cleanup_all(root => '" + workDir().toUri() + "', older_than => '7d',"
            + " dryrun => true)").await())
        .hasStackTraceContaining("needs dry_run");
    List<String> describeColumns = new ArrayList<>(List.of("table", "status"));
    describeColumns.addAll(StorageReport.totalNames());
    describeColumns.add("error");
    assertThat(call("CALL lance.sys.describe_storage_all(root => '" + workDir().toUri() + "', `pattern` => 'none-*')")
            .getResolvedSchema().getColumnNames())
        .isEqualTo(describeColumns);
  }
}
