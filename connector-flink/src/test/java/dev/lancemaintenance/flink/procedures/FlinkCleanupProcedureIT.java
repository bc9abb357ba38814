package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.UserErrors;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.UndeletableFile;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.InjectClusterClient;
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
  private static PristineTable table;
  /** After every version of the table: read once it is written, which may take minutes on a loaded machine. */
  private static String cutoff;

  private TableEnvironment sql;

  @BeforeAll
  static void writeTable() {
    table = PristineTable.keep(ConformanceScenarios.deletes(workDir).table().root(), workDir.resolve("pristine"));
    cutoff = Instant.now().plus(Duration.ofMinutes(1)).toString();
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
        sql.executeSql("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff + "', dry_run => false)");
    List<String> names = result.getResolvedSchema().getColumnNames();
    List<Row> rows = rows(result);
    TreeSet<String> flinkFiles = table.currentFiles();

    table.restore();
    CleanupResult local = localCleanup().execute();

    assertThat(rows).hasSize(1);
    assertThat(withoutDuration(columns(names, rows.get(0)))).as("SQL row vs local engine, manifests read included")
        .isEqualTo(withoutDuration(local.row()));
    assertThat(flinkFiles).as("files left by CALL vs the local engine").isEqualTo(table.currentFiles());
  }

  /** The local engine on the same table with the same cutoff, to compare a CALL's row with. */
  private static LocalCleanupAction localCleanup() {
    return new LocalCleanupAction(
            TableLocation.of(table.table().toString()), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .beforeTimestamp(Instant.parse(cutoff));
  }

  /**
   * {@code distribute_above}: the small table's CALL runs in the client and submits no job; with
   * {@code distribute_above => 0} the same CALL is a Flink job. Both leave what the local engine leaves.
   */
  @Test
  void aSmallTableIsCleanedInTheClientUnlessDistributeAboveIsZero(@InjectClusterClient ClusterClient<?> flink)
      throws Exception {
    TreeSet<String> local = whatTheLocalEngineLeaves();
    String call = cleanupCallWithoutItsEnd();
    assertThat(jobsOf(flink, call + ")", local)).as("jobs of a CALL on a table of a few versions").isZero();
    assertThat(jobsOf(flink, call + ", distribute_above => 0)", local)).as("jobs of a CALL with distribute_above => 0")
        .isPositive();
  }

  /**
   * The table environment's {@value DistributeAbove#FLINK_SETTING} (set as the SQL client's {@code SET}
   * sets it, in the table config) is the default of its CALLs:
   * {@code '0'} makes the small table's CALL a job, a larger value keeps it in the client, and a
   * CALL's {@code distribute_above} overrides the setting. The same files go every way.
   */
  @Test
  void theSessionsDistributeAboveDecidesClientOrJobAndTheCallOverridesIt(@InjectClusterClient ClusterClient<?> flink)
      throws Exception {
    TreeSet<String> local = whatTheLocalEngineLeaves();
    String call = cleanupCallWithoutItsEnd();

    sql.getConfig().set(DistributeAbove.FLINK_SETTING, "0");
    assertThat(jobsOf(flink, call + ")", local)).as("jobs of a CALL under the session's '0'").isPositive();
    assertThat(jobsOf(flink, call + ", distribute_above => 5000)", local))
        .as("jobs of a CALL whose distribute_above overrides the session's '0'").isZero();
    sql.getConfig().set(DistributeAbove.FLINK_SETTING, "100");
    assertThat(jobsOf(flink, call + ")", local)).as("jobs of a CALL under the session's '100'").isZero();
    assertThat(jobsOf(flink, call + ", distribute_above => 0)", local))
        .as("jobs of a CALL whose distribute_above => 0 overrides the session's '100'").isPositive();
  }

  /** The files the local engine leaves of the restored table: what every CALL of it must leave. */
  private static TreeSet<String> whatTheLocalEngineLeaves() {
    table.restore();
    localCleanup().execute();
    return table.currentFiles();
  }

  /** {@code CALL lance.sys.cleanup(...)} of the table with the cutoff, not a dry run, without its closing parenthesis. */
  private static String cleanupCallWithoutItsEnd() {
    return "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff + "', dry_run => false";
  }

  /** The jobs {@code call} submits on the restored table, which it must leave as {@code local} (the local engine's). */
  private int jobsOf(ClusterClient<?> flink, String call, TreeSet<String> local) throws Exception {
    table.restore();
    int jobsBefore = flink.listJobs().get().size();
    rows(sql.executeSql(call));
    assertThat(table.currentFiles()).as("files left by %s vs the local engine", call).isEqualTo(local);
    return flink.listJobs().get().size() - jobsBefore;
  }

  /** A session setting that is no number of versions fails every CALL with a one-line error naming it, deleting nothing. */
  @Test
  void aBadSessionDistributeAboveIsAOneLineErrorNamingItAndDeletesNothing() {
    String call = "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff + "', dry_run => false)";
    for (String bad : List.of("many", "-1", "1.5")) {
      sql.getConfig().set(DistributeAbove.FLINK_SETTING, bad);
      assertThatThrownBy(() -> rows(sql.executeSql(call))).as("%s = '%s'", DistributeAbove.FLINK_SETTING, bad)
          .satisfies(e -> assertThat(UserErrors.message(e)).startsWith(DistributeAbove.FLINK_SETTING)
              .contains(bad).doesNotContain("\n"));
      assertThat(table.currentFiles()).as("a refused CALL deletes nothing").isEqualTo(table.files());
    }
  }

  @Test
  void aNegativeDistributeAboveIsAOneLineErrorNamingItAndDeletesNothing() {
    String call = "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff
        + "', dry_run => false, distribute_above => -1)";
    assertThatThrownBy(() -> rows(sql.executeSql(call))).as(call)
        .satisfies(e -> assertThat(UserErrors.message(e)).startsWith("distribute_above ").doesNotContain("\n"));
    assertThat(table.currentFiles()).as("a refused CALL deletes nothing").isEqualTo(table.files());
  }

  @Test
  void retainLastAndMaxDeletesReachTheRun() {
    TableResult result = sql.executeSql("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '"
        + cutoff + "', dry_run => false, retain_last => 2, max_deletes => 1)");
    Map<String, Object> row = columns(result.getResolvedSchema().getColumnNames(), rows(result).get(0));

    table.restore();
    CleanupResult local = localCleanup().retainLast(2).maxDeletes(1).execute();

    assertThat(local.counters().deferredDeletes()).as("the local engine defers").isPositive();
    assertThat(row).as("the row").containsEntry("deferred_deletes", local.counters().deferredDeletes())
        .containsEntry("manifest_files_removed", 0L);
  }

  @Test
  void aFailedDeleteShowsInTheRowAndKeepsTheExpiredManifests() {
    TreeSet<String> pristine = table.files();
    String stuck = pristine.stream().filter(p -> p.startsWith("_transactions/0-")).findFirst().orElseThrow();
    List<Row> rows;
    TableResult result;
    try (UndeletableFile ignored = UndeletableFile.make(table.table().resolve(stuck))) {
      result = sql.executeSql("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff + "', dry_run => false)");
      rows = rows(result);
    }
    Map<String, Object> counters = columns(result.getResolvedSchema().getColumnNames(), rows.get(0));

    assertThat(counters).as("the row").containsEntry("failed_deletes", 1L).containsEntry("old_versions", 0L);
    assertThat(table.currentFiles()).as("the stuck file and every manifest stay")
        .contains(stuck)
        .containsAll(pristine.stream().filter(p -> p.startsWith("_versions/")).toList());
  }

  @Test
  void outputColumnsAreTheResultNamesInOrder() {
    TableResult result = sql.executeSql(
        "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff + "', dry_run => true)");
    List<String> columns = result.getResolvedSchema().getColumnNames();
    rows(result);

    assertThat(columns).isEqualTo(CleanupResult.rowNames());
    assertThat(table.currentFiles()).as("a dry run through SQL deletes nothing").isEqualTo(table.files());
  }

  @Test
  void cleanupFilesListsTheFilesARealRunDeletes() {
    List<Row> files = rows(sql.executeSql(
        "CALL lance.sys.cleanup_files(`table` => '" + table.table() + "', older_than => '" + cutoff + "')"));
    TreeSet<String> listed = new TreeSet<>();
    files.forEach(row -> listed.add((String) row.getField(0)));
    assertThat(table.currentFiles()).as("cleanup_files deletes nothing").isEqualTo(table.files());

    rows(sql.executeSql(
        "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff + "', dry_run => false)"));
    TreeSet<String> deleted = table.files();
    deleted.removeAll(table.currentFiles());
    assertThat(listed).as("files listed vs files then deleted").isNotEmpty().isEqualTo(deleted);
  }

  @Test
  void theArgumentsAreTheOptionCatalogue() {
    List<String> cleanup = new ArrayList<>(CleanupOption.sqlNames());
    cleanup.add(0, "table");
    List<String> files = new ArrayList<>();
    files.add("table");
    CleanupOption.policyOptions().forEach(option -> files.add(option.sqlName()));
    List<String> fleet = new ArrayList<>(List.of("root", "pattern"));
    fleet.addAll(CleanupOption.sqlNames());

    assertThat(ProcedureHints.names(FlinkCleanupProcedure.class)).isEqualTo(cleanup);
    assertThat(ProcedureHints.names(FlinkCleanupFilesProcedure.class)).isEqualTo(files);
    assertThat(ProcedureHints.names(FlinkCleanupAllProcedure.class)).isEqualTo(fleet);
  }

  @Test
  void anIncrementalVerifiedCallRemovesWhatTheLocalEngineRemovesAndKeepsALedger() {
    List<Row> rows = rows(sql.executeSql("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '" + cutoff
        + "', dry_run => false, mode => 'incremental', verify => true)"));
    TreeSet<String> flinkFiles = table.currentFiles();
    assertThat(java.nio.file.Files.isDirectory(table.table().resolve(dev.lancemaintenance.ledger.Ledger.DIR)))
        .as("the ledger the call committed").isTrue();

    table.restore();
    localCleanup().execute();
    assertThat(rows).hasSize(1);
    assertThat(flinkFiles).as("files left by the incremental CALL vs the local engine").isEqualTo(table.currentFiles());
  }

  @Test
  void aModeThatIsNeitherFullNorIncrementalIsAnErrorAndDeletesNothing() {
    assertRefusedWithoutDeletes("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '0s', dry_run => false,"
        + " mode => 'fast')", "'mode'");
  }

  /** Flink drops an unknown name before the procedure sees it: dry_run is required, so it cannot be lost. */
  @Test
  void aMisspeltDryRunIsAnErrorAndDeletesNothing() {
    assertRefusedWithoutDeletes(
        "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '0s', dryrun => true)", "dry_run");
    assertRefusedWithoutDeletes(
        "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_thn => '30d', dry_run => false)", "older_than");
  }

  @Test
  void aNullDryRunOrOlderThanIsAnErrorAndDeletesNothing() {
    assertRefusedWithoutDeletes(
        "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '0s', dry_run => NULL)", "dry_run");
    assertRefusedWithoutDeletes(
        "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => NULL, dry_run => false)", "older_than");
  }

  @Test
  void deleteUnverifiedWithAShortWindowIsRefusedUnlessAllowed() {
    String call = "CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '0s', dry_run => false,"
        + " delete_unverified => true";
    assertRefusedWithoutDeletes(call + ")", "allow_short_retention => true");

    List<Row> rows = rows(sql.executeSql(call + ", allow_short_retention => true)"));
    assertThat(rows).hasSize(1);
    assertThat(table.currentFiles()).as("the guard lifted explicitly, the run deletes").isNotEqualTo(table.files());
  }

  @Test
  void olderThanTakesTheGrammarOfTheTablesAutoCleanupConfig() {
    rows(sql.executeSql("CALL lance.sys.cleanup(`table` => '" + table.table() + "', older_than => '14days', dry_run => false)"));

    assertThat(table.currentFiles()).as("nothing is 14 days old").isEqualTo(table.files());
  }

  private void assertRefusedWithoutDeletes(String call, String named) {
    assertThatThrownBy(() -> rows(sql.executeSql(call))).as(call)
        .satisfies(e -> assertThat(UserErrors.message(e) + " " + e.getMessage()).contains(named));
    assertThat(table.currentFiles()).as("%s deletes nothing", call).isEqualTo(table.files());
  }

  private static Map<String, Object> columns(List<String> names, Row row) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      values.put(names.get(i), row.getField(i));
    }
    return values;
  }

  private static Map<String, Object> withoutDuration(Map<String, Object> counters) {
    Map<String, Object> copy = new LinkedHashMap<>(counters);
    copy.remove("duration_ms");
    return copy;
  }

  /** Every row of a call's result. */
  static List<Row> rows(TableResult result) {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> iterator = result.collect()) {
      iterator.forEachRemaining(rows::add);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }
}
