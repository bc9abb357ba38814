package dev.lancemaintenance.spark.extensions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Spark 3.5 session extension does beyond the procedures' own tests (which run here too):
 * the binding Spark 4 would do, and a parser that takes only {@code CALL lance.*}.
 */
class LanceCallExtensionIT {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @TempDir Path dir;

  private LanceTableFixture table() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    for (int i = 0; i < 3; i++) {
      table.append(10);
    }
    return table;
  }

  @Test
  void everyOtherStatementIsSparksOwn() {
    assertThat(SPARK.sql("SELECT 1 AS one").collectAsList().get(0).getInt(0)).isEqualTo(1);
    assertThatThrownBy(() -> SPARK.sql("CALL spark_catalog.system.expire_snapshots('db.t')"))
        .as("another catalog's CALL goes to Spark's parser, which has no CALL on 3.5")
        .isInstanceOf(ParseException.class);
  }

  @Test
  void takesConstantExpressionsConvertedToTheParametersTypes() {
    LanceTableFixture table = table();

    Row row = SPARK.sql("CALL lance.cleanup(table => concat('" + table.uri() + "', ''), older_than => '0s',"
            + " max_concurrent_deletes => 2L, options => map('fs.file.impl.disable.cache', 'true'))")
        .collectAsList().get(0);

    assertThat(row.<Long>getAs("old_versions")).isEqualTo(2L);
    assertThat(table.versions()).containsExactly(3L);
  }

  @Test
  void mistakesInTheArgumentsAreErrorsNamingThemAndDeleteNothing() {
    LanceTableFixture table = table();
    TreeSet<String> before = new TreeSet<>(table.listFiles());
    String uri = "'" + table.uri() + "'";

    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => " + uri + ", '0s')"))
        .hasMessageContaining("positional argument 2 follows a named argument");
    // The table, every catalogue option, the options map and file_list_view: one more is too many.
    int parameters = CleanupOption.values().length + 3;
    String tooMany = String.join(", ", Collections.nCopies(parameters - 1, "NULL"));
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(" + uri + ", " + tooMany + ", 1)"))
        .hasMessageContaining("takes at most " + parameters + " arguments, " + (parameters + 1) + " given");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(" + uri + ", table => " + uri + ")"))
        .hasMessageContaining("'table' is given more than once");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(older_than => '0s')"))
        .hasMessageContaining("'table' is required");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(" + uri + ", max_concurrent_deletes => 'many')"))
        .hasMessageContaining("'max_concurrent_deletes' must be int");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.compact(" + uri + ", target_rows => 10)"))
        .hasMessageContaining("Unknown compact argument 'target_rows'")
        .hasMessageContaining("target_rows_per_fragment");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.vacuum(" + uri + ")"))
        .hasMessageContaining("No procedure lance.vacuum (available: cleanup, cleanup_all, compact, create_tag, delete_tag, describe_storage, describe_storage_all, expire_versions, maintenance_history, move_tag, optimize, optimize_all, remove_orphan_files");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(" + uri + ", older_than => current_date() - id)"))
        .as("not a constant").isInstanceOf(Exception.class);
    assertThat(new TreeSet<>(table.listFiles())).as("nothing deleted").isEqualTo(before);
  }

  @Test
  void aDryRunReturnsItsFileRows() {
    LanceTableFixture table = table();

    List<Row> rows = SPARK.sql("CALL lance.cleanup('" + table.uri() + "', '0s', dry_run => true)").collectAsList();

    assertThat(rows).isNotEmpty();
    assertThat(rows.get(0).schema().fieldNames()).containsExactly("path", "kind", "bytes", "reason");
    assertThat(table.versions()).as("nothing deleted").containsExactly(1L, 2L, 3L);
  }
}
