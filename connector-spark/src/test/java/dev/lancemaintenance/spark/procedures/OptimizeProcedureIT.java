package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.SmallFragmentsTable;
import dev.lancemaintenance.compaction.TagTrapException;
import dev.lancemaintenance.spark.ResultRows;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;


/**
 * {@code CALL lance.compact} and {@code CALL lance.optimize} on a table of many small fragments,
 * deletes and a BTREE index written by the SDK: the same layout as the SDK's own {@code
 * Dataset.compact} on a twin, the same content, old versions gone and every remaining version
 * readable; the tag trap refuses before compacting and its opt-out keeps the tag.
 */
class OptimizeProcedureIT {
  /** target_rows_per_fragment of SmallFragmentsTable.SEVERAL_TASKS: several tasks. */
  private static final String SEVERAL_TASKS = "target_rows_per_fragment => 40, max_concurrent_tasks => 2";

  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();
  @TempDir static Path templateDir;
  private static LanceTableFixture template;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    template = SmallFragmentsTable.write(templateDir.resolve("template"));
  }

  private LanceTableFixture copy(String name) {
    TableTwins.copy(template.root(), dir.resolve(name));
    return LanceTableFixture.open(dir.resolve(name));
  }

  private static Row single(String sql) {
    List<Row> rows = SPARK.sql(sql).collectAsList();
    assertThat(rows).as("rows of %s", sql).hasSize(1);
    return rows.get(0);
  }

  @Test
  void optimizeMergesAsLanceDoesKeepsTheContentAndCleansEveryEarlierVersion() {
    LanceTableFixture table = copy("ours");
    LanceTableFixture twin = copy("lance");
    long latestBefore = table.latestVersion();
    int fragmentsBefore = SmallFragmentsTable.fragmentIds(table).size();
    TableContent before = SmallFragmentsTable.latestContent(table);

    Row row = single("CALL lance.optimize(table => '" + table.uri() + "', " + SEVERAL_TASKS + ", older_than => '0s')");
    SmallFragmentsTable.sdkCompact(twin, SmallFragmentsTable.SEVERAL_TASKS);

    assertThat(row.schema().fieldNames()).as("columns").containsExactly(ResultRows.OPTIMIZE_SCHEMA.fieldNames());
    assertThat(SmallFragmentsTable.latestContent(table)).as("rows and checksum at the latest version").isEqualTo(before);
    assertThat(SmallFragmentsTable.fragmentLayout(table))
        .as("fragment layout, ours against Dataset.compact on a twin")
        .isEqualTo(SmallFragmentsTable.fragmentLayout(twin));
    Set<Integer> after = SmallFragmentsTable.fragmentIds(table);
    assertThat(row.<Long>getAs("planned_tasks")).as("planned_tasks").isGreaterThanOrEqualTo(3L);
    assertThat(row.<Long>getAs("fragments_added")).as("fragments_added").isPositive();
    assertThat(fragmentsBefore - row.<Long>getAs("fragments_removed") + row.<Long>getAs("fragments_added"))
        .as("fragments before - removed + added")
        .isEqualTo(after.size());
    // The window of 0 s starts after compacting: the compaction's earlier commits go too.
    assertThat(row.<Long>getAs("old_versions")).as("old_versions").isEqualTo(table.latestVersion() - 1);
    assertThat(row.<Long>getAs("new_version")).as("new_version").isEqualTo(table.latestVersion());
    assertThat(row.<Long>getAs("net_bytes"))
        .as("net_bytes")
        .isEqualTo(row.<Long>getAs("bytes_written") - row.<Long>getAs("bytes_reclaimed"))
        .isNegative();
    assertThat(table.versions()).as("versions left").containsExactly(table.latestVersion());
    assertThat(table.latestVersion()).as("latest version").isGreaterThan(latestBefore);
    assertThat(ReadBack.snapshot(table.root()).unreadable()).as("versions that do not read").isEmpty();
  }

  @Test
  void compactCommitsInGroupsAndReportsWhatItReplaced() {
    LanceTableFixture table = copy("t");
    TableContent before = SmallFragmentsTable.latestContent(table);
    Set<Integer> fragmentsBefore = SmallFragmentsTable.fragmentIds(table);

    Row row = single("CALL lance.compact('" + table.uri() + "', 40, NULL, NULL, NULL, NULL, NULL, NULL, 2, 1)");

    Set<Integer> removed = new TreeSet<>(fragmentsBefore);
    removed.removeAll(SmallFragmentsTable.fragmentIds(table));
    assertThat(row.schema().fieldNames()).as("columns").containsExactly(ResultRows.COMPACT_SCHEMA.fieldNames());
    assertThat(row.<Long>getAs("commits")).as("commits with partial_progress 1").isEqualTo(row.<Long>getAs("tasks"));
    assertThat(row.<Long>getAs("fragments_removed")).as("fragments_removed").isEqualTo(removed.size());
    assertThat(row.<Long>getAs("new_version")).as("new_version").isEqualTo(table.latestVersion());
    assertThat(SmallFragmentsTable.latestContent(table)).as("content at the latest version").isEqualTo(before);
  }

  @Test
  void tagTrapRefusesBeforeCompactingAndLeavesTheFilesAsTheyWere() {
    LanceTableFixture table = copy("t");
    long latest = table.latestVersion();
    table.tag("current", latest);
    List<String> filesBefore = table.listFiles();

    assertThatThrownBy(() -> SPARK.sql("CALL lance.optimize(table => '" + table.uri() + "', older_than => '0s')").collect())
        .satisfies(e -> assertThat(causes(e)).as("causes").anyMatch(TagTrapException.class::isInstance))
        .hasMessageContaining("current -> v" + latest + " (the latest version now; compaction makes it old)")
        .hasMessageContaining("error_if_tagged_old_versions=false");
    assertThat(table.listFiles()).as("files after the refusal").isEqualTo(filesBefore);
  }

  @Test
  void withTheOptOutOptimizeCompactsAndKeepsTheTaggedVersion() {
    LanceTableFixture table = copy("t");
    long latest = table.latestVersion();
    table.tag("current", latest);
    TableContent tagged = ReadBack.read(table.root(), Ref.ofTag("current"));

    Row row = single(
        "CALL lance.optimize(table => '" + table.uri() + "', " + SEVERAL_TASKS
            + ", older_than => '0s', error_if_tagged_old_versions => false)");

    assertThat(row.<Long>getAs("commits")).as("commits").isEqualTo(1L);
    assertThat(table.versions()).as("versions left").contains(latest);
    assertThat(ReadBack.read(table.root(), Ref.ofTag("current"))).as("tag current").isEqualTo(tagged);
    assertThat(SmallFragmentsTable.latestContent(table)).as("content at the latest version").isEqualTo(tagged);
  }

  @Test
  void theParametersAreTheOptionCatalogues() {
    List<String> compact = new java.util.ArrayList<>(List.of("table"));
    compact.addAll(CompactionOption.CATALOGUE.sqlNames());
    compact.add("options");
    List<String> optimize = new java.util.ArrayList<>(compact);
    OptimizeAction.CLEANUP_OPTIONS.forEach(option -> optimize.add(option.sqlName()));
    optimize.add(optimize.indexOf("allow_short_retention"), "hadoop_options");

    assertThat(names(CompactionParameters.ALL)).as("lance.compact").isEqualTo(compact);
    assertThat(names(SparkOptimizeProcedure.parameters(DataTypes.StringType))).as("lance.optimize").isEqualTo(optimize);
    assertThat(optimize.subList(compact.size(), compact.size() + 6)).as("positional calls written before keep their meaning")
        .containsExactly("older_than", "delete_unverified", "error_if_tagged_old_versions", "dry_run", "hadoop_options",
            "allow_short_retention");
  }

  @Test
  void aMisspeltOrNullArgumentToOptimizeIsAnErrorAndChangesNothing() {
    LanceTableFixture table = copy("t");
    List<String> filesBefore = table.listFiles();
    String call = "CALL lance.optimize(table => '" + table.uri() + "', ";

    assertThatThrownBy(() -> SPARK.sql(call + "older_thn => '0s')").collect()).hasMessageContaining("older_thn");
    assertThatThrownBy(() -> SPARK.sql(call + "older_than => NULL)").collect())
        .hasMessageContaining("'older_than' is NULL");
    assertThatThrownBy(() -> SPARK.sql(call + "older_than => '0s', dry_run => NULL)").collect())
        .hasMessageContaining("'dry_run' is NULL");
    assertThatThrownBy(() -> SPARK.sql(call + "older_than => '0s', max_concurrent_deletes => 0)").collect())
        .hasMessageContaining("max_concurrent_deletes");
    assertThat(table.listFiles()).as("files after the refusals").isEqualTo(filesBefore);
  }

  private static List<String> names(List<Parameter> parameters) {
    return parameters.stream().map(Parameter::name).toList();
  }

  private static List<Throwable> causes(Throwable e) {
    List<Throwable> chain = new java.util.ArrayList<>();
    for (Throwable t = e; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }
}
