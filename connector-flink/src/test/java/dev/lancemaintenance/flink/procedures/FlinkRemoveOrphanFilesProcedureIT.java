package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.UserErrors;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OrphanedTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CollectionUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.sys.remove_orphan_files(...)} through a Flink {@link TableEnvironment} (the
 * semantics are the contract's, {@code LocalRemoveOrphanFilesIT}): on the {@link OrphanedTable}.
 */
class FlinkRemoveOrphanFilesProcedureIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  @TempDir Path dir;

  @Test
  void removesTheOldOrphanAndRefusesACallWithoutDryRun() {
    OrphanedTable orphaned = OrphanedTable.write(dir.resolve("t.lance"));
    LanceTableFixture table = orphaned.table();
    String orphan = orphaned.oldOrphan();
    TreeSet<String> before = new TreeSet<>(table.listFiles());
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql("CREATE CATALOG lance WITH ('type' = 'lance-maintenance')");
    String call = "CALL lance.sys.remove_orphan_files(`table` => '" + table.uri() + "', older_than => '7d'";

    assertThatThrownBy(() -> CollectionUtil.iteratorToList(sql.executeSql(call + ", dryrun => false)").collect()))
        .satisfies(e -> assertThat(UserErrors.message(e) + " " + e.getMessage()).contains("dry_run"));
    assertThat(new TreeSet<>(table.listFiles())).as("files after the refused call").isEqualTo(before);
    TableResult result = sql.executeSql(call + ", dry_run => false)");
    List<String> columns = result.getResolvedSchema().getColumnNames();
    Row row = CollectionUtil.iteratorToList(result.collect()).get(0);

    assertThat(row.getField(columns.indexOf("data_files_removed"))).as("data_files_removed").isEqualTo(1L);
    assertThat(row.getField(columns.indexOf("old_versions"))).as("old_versions").isEqualTo(0L);
    before.remove(orphan);
    assertThat(new TreeSet<>(table.listFiles())).as("files after the call").isEqualTo(before).contains(orphaned.freshOrphan());
    KeptManifests.assertEveryManifestReadsBack(table.root());
  }

  @Test
  void theArgumentsAreRemoveOrphanFilesCatalogue() {
    List<String> expected = new ArrayList<>(List.of("table"));
    expected.addAll(CleanupOption.ORPHAN_FILES_CATALOGUE.sqlNames());

    assertThat(ProcedureHints.names(FlinkRemoveOrphanFilesProcedure.class)).isEqualTo(expected);
  }
}
