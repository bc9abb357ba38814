package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.fleet.FleetContract;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import dev.lancemaintenance.spark.ResultRows;
import dev.lancemaintenance.spark.SparkCleanupAction;
import dev.lancemaintenance.spark.SparkJobsSeen;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code CALL lance.cleanup_all(root => ..., <cleanup arguments>)}, {@code lance.describe_storage_all}
 * and {@code lance.optimize_all} in Spark SQL: the fleet contract
 * (small tables in one job, a task each; a larger one on its own distributed stages), and the rows'
 * columns.
 */
class CleanupAllProcedureIT extends FleetContract {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  /**
   * Tables of more than two versions (a.lance) run on their own distributed stages, the others in
   * the fleet's job: the contract covers both paths.
   */
  @BeforeAll
  static void start() {
    SPARK.session().conf().set(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF, "2");
  }

  @AfterAll
  static void stopSpark() {
    SPARK.session().conf().unset(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF);
  }

  @Override
  protected List<TableOutcome> cleanupAll(String rootUri, Map<String, String> options) {
    return outcomes("CALL lance.cleanup_all(root => '" + rootUri + "', " + literals(options) + ")");
  }

  @Override
  protected List<TableOutcome> describeAll(String rootUri, Map<String, String> options) {
    String arguments = options.entrySet().stream()
        .map(e -> e.getKey() + " => " + (e.getKey().startsWith("error_if") ? e.getValue() : "'" + e.getValue() + "'"))
        .collect(Collectors.joining(", "));
    List<Row> rows = SPARK.sql("CALL lance.describe_storage_all(root => '" + rootUri + "', " + arguments + ")").collectAsList();
    return rows.stream().map(CleanupAllProcedureIT::outcome).toList();
  }

  @Override
  protected List<TableOutcome> optimizeAll(String rootUri, Map<String, String> options) {
    return outcomes("CALL lance.optimize_all(root => '" + rootUri + "', " + literals(options) + ")");
  }

  /** {@code name => literal, ...}: dry_run as a boolean, every other value as a string. */
  private static String literals(Map<String, String> options) {
    return options.entrySet().stream()
        .map(e -> e.getKey() + " => " + (e.getKey().equals("dry_run") ? e.getValue() : "'" + e.getValue() + "'"))
        .collect(Collectors.joining(", "));
  }

  private static List<TableOutcome> outcomes(String fleetCall) {
    return SPARK.sql(fleetCall).collectAsList().stream().map(CleanupAllProcedureIT::outcome).toList();
  }

  private static TableOutcome outcome(Row row) {
    Map<String, Long> counters = new LinkedHashMap<>();
    for (int i = 2; i < row.length() - 1; i++) {
      if (!row.isNullAt(i)) {
        counters.put(row.schema().fields()[i].name(), row.getLong(i));
      }
    }
    return new TableOutcome(row.getString(0), TableStatus.valueOf(row.getString(1).toUpperCase(Locale.ROOT)), counters,
        row.isNullAt(row.length() - 1) ? null : row.getString(row.length() - 1));
  }

  /**
   * The fleet splits at the call's {@code distribute_above} over the session's ({@code 2} here, which
   * sends a table of more than two versions to its own distributed stages): with {@code
   * distribute_above => 100} the table runs in the fleet's job on the local engine, as its run
   * record says; without it, as Spark's run. Either way the table ends as the SDK's cleanup of its twin.
   */
  @Test
  void theCallsDistributeAboveSplitsTheFleetOverTheSessions() {
    for (String given : List.of("", ", distribute_above => 100")) {
      Path root = workDir().resolve("split" + given.length());
      LanceTableFixture table = LanceTableFixture.create(root.resolve("a.lance"));
      for (int i = 0; i < 4; i++) {
        table.append(10);
      }
      Instant cutoff = Instant.now().plusSeconds(60);
      Path twin = workDir().resolve("split-twin" + given.length());
      TableTwins.copy(root.resolve("a.lance"), twin);
      assertThat(LanceOracle.cleanup(twin, OraclePolicy.builder().beforeTimestamp(cutoff).build()))
          .isInstanceOf(OracleOutcome.Removed.class);
      List<Row> rows = SPARK.sql("CALL lance.cleanup_all(root => '" + root.toUri() + "', older_than => '"
          + cutoff + "', dry_run => false" + given + ")").collectAsList();
      assertThat(rows).as(given).hasSize(1).allSatisfy(row -> assertThat(row.getString(1)).isEqualTo("ok"));
      try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(table.uri()))) {
        assertThat(new RunRecords(storage).history(1, Clock.systemUTC()).get(0).start().engine())
            .as("the engine that ran the table of four versions, session 2%s", given)
            .isEqualTo(given.isEmpty() ? "spark" : "local");
      }
      assertThat(table.listFiles()).as("files left, session 2%s, against the SDK's twin", given)
          .isEqualTo(LanceTableFixture.open(twin).listFiles());
    }
  }

  /**
   * Large tables cleaned daily: a worker runs a table above {@code distribute_above} itself when its
   * daily run decodes few versions, so the only Spark job is the fleet's ({@code lance-cleanup-all-*});
   * the engine's cleanup jobs ({@code lance-cleanup-*}) run the tables deferred to the driver.
   */
  @Test
  void dailyRunsOfLargeTablesRunOnTheFleetsTasksWhenFewVersionsAreNew() throws Exception {
    SparkJobsSeen jobs = SparkJobsSeen.listenTo(SPARK.session());
    try {
      dailyRunsOfLargeTablesGoToWorkersWhenFewVersionsAreNew("spark", () -> (int) jobs.seenUntilBarrier(SPARK.session()).stream()
          .filter(job -> job.startsWith("lance-cleanup-") && !job.startsWith("lance-cleanup-all-"))
          .count());
    } finally {
      jobs.stopListening(SPARK.session());
    }
  }

  @Test
  void theRowsAreTableStatusTheCleanupCountersAndError() {
    assertThat(SPARK.sql("CALL lance.cleanup_all(root => '" + workDir().toUri() + "', pattern => 'none-*')").schema())
        .isEqualTo(ResultRows.FLEET_CLEANUP_SCHEMA);
    assertThat(ResultRows.FLEET_CLEANUP_SCHEMA.fieldNames()).startsWith("table", "status").endsWith("error");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup_all(root => '" + workDir().toUri() + "', dryrun => true)").collect())
        .hasMessageContaining("dryrun");
    assertThat(SPARK.sql("CALL lance.describe_storage_all(root => '" + workDir().toUri() + "', pattern => 'none-*')").schema())
        .isEqualTo(ResultRows.FLEET_DESCRIBE_SCHEMA);
    assertThatThrownBy(() -> SPARK.sql("CALL lance.describe_storage_all(root => '" + workDir().toUri() + "', dry_run => true)").collect())
        .hasMessageContaining("dry_run");
    assertThat(SPARK.sql("CALL lance.optimize_all(root => '" + workDir().toUri() + "', pattern => 'none-*')").schema())
        .isEqualTo(ResultRows.FLEET_OPTIMIZE_SCHEMA);
    assertThatThrownBy(() -> SPARK.sql("CALL lance.optimize_all(root => '" + workDir().toUri() + "', branch => 'b')").collect())
        .hasMessageContaining("branch");
  }
}
