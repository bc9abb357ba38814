package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.spark.FileListViews;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OrphanedTable;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.remove_orphan_files(...)} on Spark 4.1 (the semantics are the contract's, {@code
 * LocalRemoveOrphanFilesIT}): on the {@link OrphanedTable}.
 */
class RemoveOrphanFilesProcedureIT {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @TempDir Path dir;

  @Test
  void listsThenRemovesTheOldOrphanAndRefusesAnOptionThatChoosesVersions() {
    OrphanedTable orphaned = OrphanedTable.write(dir.resolve("t.lance"));
    LanceTableFixture table = orphaned.table();
    String orphan = orphaned.oldOrphan();
    TreeSet<String> before = new TreeSet<>(table.listFiles());
    String call = "CALL lance.remove_orphan_files(table => '" + table.uri() + "'";

    List<Row> listed = SPARK.sql(call + ", dry_run => true)").collectAsList();
    assertThatThrownBy(() -> SPARK.sql(call + ", before_version => 2)").collect())
        .hasMessageContaining("before_version");
    assertThat(new TreeSet<>(table.listFiles())).as("files after the dry run and the refused call").isEqualTo(before);
    List<Row> counters = SPARK.sql(call + ")").collectAsList();

    assertThat(listed).as("the dry run's rows").singleElement()
        .satisfies(row -> assertThat(row.<String>getAs("path")).isEqualTo(orphan));
    assertThat(counters).singleElement().satisfies(row -> {
      assertThat(row.<Long>getAs("data_files_removed")).as("data_files_removed").isEqualTo(1L);
      assertThat(row.<Long>getAs("old_versions")).as("old_versions").isZero();
    });
    before.remove(orphan);
    assertThat(new TreeSet<>(table.listFiles())).as("files after the call").isEqualTo(before).contains(orphaned.freshOrphan());
    KeptManifests.assertEveryManifestReadsBack(table.root());
  }

  /** Listed from a view of file paths, only the orphans the view shows are candidates. */
  @Test
  void listsFromAFileListViewAndLeavesWhatItDoesNotShow() {
    OrphanedTable orphaned = OrphanedTable.write(dir.resolve("view.lance"));
    String orphan = orphaned.oldOrphan();
    FileListViews.register(SPARK.session(), "every_file", orphaned.table().uri(), new Configuration(), path -> true);
    FileListViews.register(
        SPARK.session(), "without_the_orphan", orphaned.table().uri(), new Configuration(), path -> !path.equals(orphan));
    String call = "CALL lance.remove_orphan_files(table => '" + orphaned.table().uri() + "', dry_run => true, file_list_view => ";

    assertThat(SPARK.sql(call + "'every_file')").collectAsList()).as("listed from the whole view").singleElement()
        .satisfies(row -> assertThat(row.<String>getAs("path")).isEqualTo(orphan));
    assertThat(SPARK.sql(call + "'without_the_orphan')").collectAsList()).as("listed from a view without the orphan").isEmpty();
    assertThatThrownBy(() -> SPARK.sql(call + "NULL)").collect()).hasMessageContaining("file_list_view").hasMessageContaining("NULL");
  }
}
