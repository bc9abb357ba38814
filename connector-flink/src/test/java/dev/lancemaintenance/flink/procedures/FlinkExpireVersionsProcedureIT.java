package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.expire.ExpireVersionsAction;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.CompactedHistory;
import dev.lancemaintenance.testing.ExpiryRecordFiles;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.sys.expire_versions} in Flink SQL (it runs in the client, no job), then the
 * sweep with the same policy as a Flink cleanup job (its subtasks read the expiry records, its
 * client retires them; the cleanup's CALL is {@code FlinkCleanupProcedureIT}'s): the files one SDK
 * 7.0.0 cleanup leaves on a twin, and no record left. A lost {@code dry_run} is an error with
 * nothing deleted.
 */
class FlinkExpireVersionsProcedureIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir Path dir;

  @Test
  void expireInFlinkSqlThenASweepLeaveWhatOneSdkCleanupLeaves() throws Exception {
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
    LanceTableFixture table = CompactedHistory.write(LanceTableFixture.create(dir.resolve("t")));
    List<Long> versions = table.versions();
    List<String> sdkLeaves = TableTwins.filesTheSdkLeaves(table.root(), dir.resolve("twin"),
        OraclePolicy.builder().beforeTimestamp(Instant.now().plusSeconds(3_600)).beforeVersion(versions.get(versions.size() - 2)).build());
    String t = "`table` => '" + table.uri() + "'";
    List<String> before = FileTimes.listFiles(table.root());

    assertThatThrownBy(() -> sql.executeSql("CALL lance.sys.expire_versions(" + t + ", older_than => '0s', dryrun => false)"))
        .hasStackTraceContaining("dry_run");
    assertThat(FileTimes.listFiles(table.root())).as("files after the call without dry_run").isEqualTo(before);

    TableResult result = sql.executeSql(
        "CALL lance.sys.expire_versions(" + t + ", older_than => '0s', retain_last => 2, dry_run => false)");
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = result.collect()) {
      it.forEachRemaining(rows::add);
    }
    assertThat(ExpiryRecordFiles.of(table.root())).as("records of the expired versions").isNotEmpty();
    FlinkTestCluster.cleanup(table.uri()).olderThan(Duration.ZERO).retainLast(2).execute();

    assertThat(rows).hasSize(1);
    assertThat(result.getResolvedSchema().getColumnNames().get(0)).isEqualTo("old_versions");
    assertThat(rows.get(0).getField(0)).isEqualTo((long) versions.size() - 2);
    assertThat(FileTimes.listFiles(table.root())).as("files left by expire then the sweep, and by the SDK").isEqualTo(sdkLeaves);
    assertThat(ExpiryRecordFiles.of(table.root())).as("records retired by the complete sweep").isEmpty();
    KeptManifests.assertEveryManifestReadsBack(table.root());
  }

  @Test
  void theArgumentHintsAreTheCatalogueOfExpireVersionsInOrder() {
    List<String> expected = new ArrayList<>(List.of("table"));
    ExpireVersionsAction.OPTIONS.forEach(option -> expected.add(option.sqlName()));

    assertThat(ProcedureHints.names(FlinkExpireVersionsProcedure.class)).isEqualTo(expected);
  }
}
