package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.sys.create_tag / move_tag / delete_tag} in Flink SQL, checked with the SDK: the
 * way out a cleanup refusing over a tagged old version names, taken in Flink. The tag procedures
 * run in the client (no job); the cleanups around them run on the MiniCluster.
 */
class FlinkTagProcedureIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir Path dir;
  private TableEnvironment sql;

  @BeforeEach
  void catalog() {
    sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
  }

  /** The one row of a tag call. */
  private Row single(String call) {
    TableResult result = sql.executeSql(call);
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = result.collect()) {
      it.forEachRemaining(rows::add);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    assertThat(rows).as("rows of %s", call).hasSize(1);
    if (call.contains("_tag(")) {
      assertThat(result.getResolvedSchema().getColumnNames()).containsExactly("tag", "branch", "version");
    }
    return rows.get(0);
  }

  @Test
  void aRefusedCleanupGoesThroughAfterTheTagIsMovedInFlinkSql() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.append(10);
    long latest = table.append(10);
    String t = "`table` => '" + table.uri() + "'";

    Row created = single("CALL lance.sys.create_tag(" + t + ", tag => 'release', version => 1)");
    assertThat(table.sdkTags().get("release").getVersion()).as("the SDK reads the created tag").isEqualTo(1);
    // Refused on the local engine (Flink refuses alike: FlinkRefusalIT); a failed Flink job costs restarts.
    assertThatThrownBy(() -> new LocalCleanupAction(TableLocation.of(table.uri()),
            HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC()).olderThan(Duration.ZERO).execute())
        .hasMessageContaining("release -> v1")
        .hasMessageContaining("sys.move_tag");
    Row moved = single("CALL lance.sys.move_tag(" + t + ", tag => 'release', version => " + latest + ")");
    single("CALL lance.sys.cleanup(" + t + ", older_than => '0s', dry_run => false)");

    assertThat(created.getField(0)).isEqualTo("release");
    assertThat(created.getField(1)).as("branch of a main-line tag").isNull();
    assertThat(created.getField(2)).isEqualTo(1L);
    assertThat(moved.getField(2)).isEqualTo(latest);
    assertThat(table.versions()).as("versions after the cleanup").containsExactly(latest);
    assertThat(table.sdkTags().get("release").getVersion()).as("the SDK reads the moved tag").isEqualTo(latest);
  }

  @Test
  void deleteReturnsWhatTheTagNamedAndMistakesAreErrors() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.append(10);
    table.tag("old", 1);
    String t = "`table` => '" + table.uri() + "'";

    assertThatThrownBy(() -> single("CALL lance.sys.create_tag(" + t + ", tag => 'x', version => 9)"))
        .hasStackTraceContaining("version 9 does not exist on main");
    assertThatThrownBy(() -> single("CALL lance.sys.create_tag(" + t + ", tag => 'x')"))
        .hasStackTraceContaining("Parameter 'version' is required");
    assertThatThrownBy(() -> single("CALL lance.sys.create_tag(" + t + ", tag => 'old', version => 2)"))
        .hasStackTraceContaining("'old'").hasStackTraceContaining("exists already (at v1)");
    assertThatThrownBy(() -> single("CALL lance.sys.delete_tag(" + t + ", tag => 'missing')"))
        .hasStackTraceContaining("'missing'").hasStackTraceContaining("does not exist");
    Row deleted = single("CALL lance.sys.delete_tag(" + t + ", tag => 'old')");

    assertThat(deleted.getField(0)).isEqualTo("old");
    assertThat(deleted.getField(2)).isEqualTo(1L);
    assertThat(table.sdkTags()).as("tags the SDK sees").isEmpty();
  }
}
