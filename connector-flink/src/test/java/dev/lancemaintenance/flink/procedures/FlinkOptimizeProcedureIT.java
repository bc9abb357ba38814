package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.SmallFragmentsTable;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.lance.Ref;

/**
 * {@code CALL lance.sys.optimize(...)} and {@code sys.compact} through a Flink {@link
 * TableEnvironment} on the MiniCluster (parallelism 2), on a table of many small fragments, deletes
 * and a BTREE index written by the SDK.
 */
class FlinkOptimizeProcedureIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir static Path templateDir;
  private static LanceTableFixture template;

  @TempDir Path dir;
  private TableEnvironment sql;

  @BeforeAll
  static void writeTable() {
    template = SmallFragmentsTable.write(templateDir.resolve("template"));
  }

  @BeforeEach
  void catalog() {
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
  }

  private LanceTableFixture copy(String name) {
    TableTwins.copy(template.root(), dir.resolve(name));
    return LanceTableFixture.open(dir.resolve(name));
  }

  /** The one row of a call, by column name. */
  private Map<String, Long> single(String call) {
    TableResult result = sql.executeSql(call);
    List<String> columns = result.getResolvedSchema().getColumnNames();
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = result.collect()) {
      it.forEachRemaining(rows::add);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    assertThat(rows).as("rows of %s", call).hasSize(1);
    Map<String, Long> named = new LinkedHashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      named.put(columns.get(i), (Long) rows.get(0).getField(i));
    }
    return named;
  }

  @Test
  void optimizeMergesAsLanceDoesKeepsTheContentAndCleansEveryEarlierVersion() {
    LanceTableFixture table = copy("ours");
    LanceTableFixture twin = copy("lance");
    long latestBefore = table.latestVersion();
    TableContent before = SmallFragmentsTable.latestContent(table);

    Map<String, Long> row = single(
        "CALL lance.sys.optimize(`table` => '" + table.uri() + "', target_rows_per_fragment => 40,"
            + " max_concurrent_tasks => 2, older_than => '0s', dry_run => false)");
    SmallFragmentsTable.sdkCompact(twin, SmallFragmentsTable.SEVERAL_TASKS);

    assertThat(SmallFragmentsTable.latestContent(table)).as("rows and checksum at the latest version").isEqualTo(before);
    assertThat(SmallFragmentsTable.fragmentLayout(table))
        .as("fragment layout, ours against Dataset.compact on a twin")
        .isEqualTo(SmallFragmentsTable.fragmentLayout(twin));
    assertThat(row.get("planned_tasks")).as("planned_tasks").isGreaterThanOrEqualTo(3L);
    assertThat(row.get("commits")).as("commits").isEqualTo(1L);
    // The window of 0 s starts after compacting: the compaction's earlier commits go too.
    assertThat(row.get("old_versions")).as("old_versions").isEqualTo(table.latestVersion() - 1);
    assertThat(row.get("new_version")).as("new_version").isEqualTo(table.latestVersion());
    assertThat(table.versions()).as("versions left").containsExactly(table.latestVersion());
    assertThat(table.latestVersion()).as("latest version").isGreaterThan(latestBefore);
    assertThat(ReadBack.snapshot(table.root()).unreadable()).as("versions that do not read").isEmpty();
  }

  @Test
  void compactCommitsEveryTaskOnItsOwnWithPartialProgressOne() {
    LanceTableFixture table = copy("t");
    TableContent before = SmallFragmentsTable.latestContent(table);

    Map<String, Long> row = single(
        "CALL lance.sys.compact(`table` => '" + table.uri() + "', target_rows_per_fragment => 40, partial_progress => 1)");

    assertThat(row.get("commits")).as("commits").isEqualTo(row.get("tasks")).isGreaterThan(1L);
    assertThat(row.get("new_version")).as("new_version").isEqualTo(table.latestVersion());
    assertThat(SmallFragmentsTable.latestContent(table)).as("content at the latest version").isEqualTo(before);
  }

  @Test
  void tagTrapRefusesBeforeCompactingAndTheOptOutKeepsTheTag() {
    LanceTableFixture table = copy("t");
    long latest = table.latestVersion();
    table.tag("current", latest);
    TableContent tagged = ReadBack.read(table.root(), Ref.ofTag("current"));
    List<String> filesBefore = table.listFiles();

    assertThatThrownBy(() -> single("CALL lance.sys.optimize(`table` => '" + table.uri() + "', older_than => '0s', dry_run => false)"))
        .hasStackTraceContaining("current -> v" + latest + " (the latest version now; compaction makes it old)");
    assertThat(table.listFiles()).as("files after the refusal").isEqualTo(filesBefore);

    Map<String, Long> row = single(
        "CALL lance.sys.optimize(`table` => '" + table.uri() + "', target_rows_per_fragment => 40,"
            + " older_than => '0s', error_if_tagged_old_versions => false, dry_run => false)");

    assertThat(row.get("commits")).as("commits with the opt-out").isEqualTo(1L);
    assertThat(table.versions()).as("versions left").contains(latest);
    assertThat(ReadBack.read(table.root(), Ref.ofTag("current"))).as("tag current").isEqualTo(tagged);
  }

  /** The annotations cannot be generated: this checks them, name and type, against the catalogues. */
  @Test
  void theArgumentsAreTheOptionCatalogues() {
    List<String> compact = new ArrayList<>(List.of("table STRING"));
    CompactionOption.CATALOGUE.options().forEach(option -> compact.add(option.sqlName() + " " + sqlType(option)));
    List<String> optimize = new ArrayList<>(List.of("table STRING"));
    OptimizeAction.OPTIONS.options().forEach(option -> optimize.add(option.sqlName() + " " + sqlType(option)));

    assertThat(ProcedureHints.namesAndTypes(FlinkCompactProcedure.class)).as("sys.compact").isEqualTo(compact);
    assertThat(ProcedureHints.namesAndTypes(FlinkOptimizeProcedure.class)).as("sys.optimize").isEqualTo(optimize);
  }

  @Test
  void aMisspeltOrNullOlderThanOrDryRunIsAnErrorAndChangesNothing() {
    LanceTableFixture table = copy("t");
    List<String> filesBefore = table.listFiles();
    String call = "CALL lance.sys.optimize(`table` => '" + table.uri() + "', ";

    assertThatThrownBy(() -> single(call + "older_than => '0s', dryrun => false)")).hasStackTraceContaining("dry_run");
    assertThatThrownBy(() -> single(call + "older_thn => '0s', dry_run => false)")).hasStackTraceContaining("older_than");
    assertThatThrownBy(() -> single(call + "older_than => NULL, dry_run => false)")).hasStackTraceContaining("older_than");
    assertThat(table.listFiles()).as("files after the refusals").isEqualTo(filesBefore);
  }

  private static String sqlType(MaintenanceOption option) {
    return switch (option.type()) {
      case CUTOFF, STRING -> "STRING";
      case LONG -> "BIGINT";
      case INT -> "INT";
      case DOUBLE -> "DOUBLE";
      case BOOLEAN -> "BOOLEAN";
    };
  }
}
