package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.create_tag / move_tag / delete_tag}, checked with the SDK: the way out a
 * cleanup refusing over a tagged old version names, taken in SQL.
 */
class TagProcedureIT {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @TempDir Path dir;

  private static Row single(String sql) {
    List<Row> rows = SPARK.sql(sql).collectAsList();
    assertThat(rows).as("rows of %s", sql).hasSize(1);
    return rows.get(0);
  }

  @Test
  void aRefusedCleanupGoesThroughAfterTheTagIsMovedInSql() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.append(10);
    long latest = table.append(10);
    String t = "table => '" + table.uri() + "'";

    Row created = single("CALL lance.create_tag(" + t + ", tag => 'release', version => 1)");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(" + t + ", older_than => '0s')").collect())
        .hasMessageContaining("release -> v1")
        .hasMessageContaining("tag move");
    Row moved = single("CALL lance.move_tag(" + t + ", tag => 'release', version => " + latest + ")");
    single("CALL lance.cleanup(" + t + ", older_than => '0s')");

    assertThat(created.schema().fieldNames()).containsExactly("tag", "branch", "version");
    assertThat(created.getString(0)).isEqualTo("release");
    assertThat(created.isNullAt(1)).as("branch of a main-line tag").isTrue();
    assertThat(created.getLong(2)).isEqualTo(1);
    assertThat(moved.getLong(2)).isEqualTo(latest);
    assertThat(table.versions()).containsExactly(latest);
    assertThat(table.sdkTags().get("release").getVersion()).isEqualTo(latest);
  }

  @Test
  void deleteReturnsWhatTheTagNamedAndMistakesAreErrors() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.append(10);
    table.tag("old", 1);
    String t = "table => '" + table.uri() + "'";

    assertThatThrownBy(() -> SPARK.sql("CALL lance.create_tag(" + t + ", tag => 'x', version => 9)").collect())
        .hasMessageContaining("version 9 does not exist on main");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.create_tag(" + t + ", tag => 'x')").collect())
        .hasMessageContaining("version");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.delete_tag(" + t + ", tag => 'missing')").collect())
        .hasMessageContaining("'missing'").hasMessageContaining("does not exist");
    Row deleted = single("CALL lance.delete_tag(" + t + ", tag => 'old')");

    assertThat(deleted.getString(0)).isEqualTo("old");
    assertThat(deleted.getLong(2)).isEqualTo(1);
    assertThat(table.sdkTags()).isEmpty();
  }
}
