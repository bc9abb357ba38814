package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalStorageReport;
import dev.lancemaintenance.report.ReportWindows;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.spark.FileListViews;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.StorageReportTable;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.describe_storage} and the notebook's {@code describeStorage}: computed by Spark
 * jobs, the same numbers as the local engine's report; arguments checked as the cleanup's.
 */
class DescribeStorageProcedureIT {
  /** The sections whose numbers do not depend on the second the report ran. */
  private static final Set<String> COUNTED = Set.of("files", "what_if", "unverified_by_age", "tag", "branch");

  @TempDir static Path dir;
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();
  private static LanceTableFixture table;

  @BeforeAll
  static void start() {
    table = StorageReportTable.write(dir.resolve("t"));
  }

  private static List<String> counted(List<List<Object>> rows) {
    return rows.stream().filter(row -> COUNTED.contains((String) row.get(0))).map(row -> row.subList(0, 5).toString()).toList();
  }

  private static List<List<Object>> local(String windows) {
    TableLocation location = TableLocation.of(table.uri());
    var stores = HadoopTableStorage.factory(StorageConf.defaults());
    StorageReport report = new LocalStorageReport(location, stores).windows(ReportWindows.parse(windows))
        .report(new LocalCleanupAction(location, stores, Clock.systemUTC()).errorIfTaggedOldVersions(false).request());
    return report.rows().stream().map(row -> List.<Object>of(row.section(), row.name(), row.versions(), row.files(), row.bytes())).toList();
  }

  private static List<List<Object>> values(List<Row> rows) {
    return rows.stream().map(row -> List.<Object>of(row.getString(0), row.getString(1), row.getLong(2), row.getLong(3), row.getLong(4))).toList();
  }

  @Test
  void theProceduresRowsAreTheLocalEnginesReport() {
    List<Row> rows = SPARK.sql("CALL lance.describe_storage(table => '" + table.uri()
        + "', windows => '0s,30d', error_if_tagged_old_versions => false)").collectAsList();

    assertThat(rows.get(0).schema().fieldNames()).as("columns")
        .containsExactly("section", "name", "versions", "files", "bytes", "detail");
    assertThat(counted(values(rows))).as("the counted sections").isNotEmpty()
        .containsExactlyElementsOf(counted(local("0s,30d")));
  }

  @Test
  void theNotebooksDataFrameIsTheSameReport() {
    List<Row> rows = LanceMaintenance.of(SPARK.session())
        .describeStorage(table.uri(), Map.of("windows", "0s", "error_if_tagged_old_versions", "false")).collectAsList();

    assertThat(counted(values(rows))).as("the counted sections").containsExactlyElementsOf(counted(local("0s")));
  }

  /**
   * Listed from a view of the table's files ({@code file_list_view}), the report is the one that
   * lists the store; it counts only the files the view shows.
   */
  @Test
  void aFileListViewGivesTheReportOfTheRunThatListsFromIt() {
    FileListViews.register(SPARK.session(), "storage_files", table.uri(), new Configuration(), path -> true);
    FileListViews.register(
        SPARK.session(), "no_data_files", table.uri(), new Configuration(), path -> !path.startsWith("data/"));
    String call = "CALL lance.describe_storage(table => '" + table.uri()
        + "', windows => '0s,30d', error_if_tagged_old_versions => false, file_list_view => ";

    List<Row> rows = SPARK.sql(call + "'storage_files')").collectAsList();

    assertThat(counted(values(rows))).as("the counted sections").containsExactlyElementsOf(counted(local("0s,30d")));
    assertThat(values(SPARK.sql(call + "'no_data_files')").collectAsList()))
        .as("files rows of a report from a view without data files")
        .filteredOn(row -> row.get(0).equals("files")).isNotEmpty()
        .noneMatch(row -> ((String) row.get(1)).startsWith("data/"));
  }

  @Test
  void aMisspeltArgumentOrARunSettingIsAnErrorNamingIt() {
    assertThatThrownBy(() -> SPARK.sql("CALL lance.describe_storage(table => '" + table.uri() + "', older_thn => '1d')").collect())
        .hasMessageContaining("older_thn");
    assertThatThrownBy(() -> LanceMaintenance.of(SPARK.session()).describeStorage(table.uri(), Map.of("dry_run", "true")))
        .hasMessageContaining("dry_run");
    assertThatThrownBy(() -> SPARK.sql("CALL lance.describe_storage(table => '" + table.uri() + "', windows => '7 parsecs')").collect())
        .hasMessageContaining("windows");
  }
}
