package dev.lancemaintenance.spark.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.spark.FileListViews;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.SparkCleanupAction;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.stores.S3Bucket;
import dev.lancemaintenance.testing.stores.S3InventoryReport;
import dev.lancemaintenance.testing.stores.S3Tables;
import dev.lancemaintenance.testing.stores.TableCopies;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Spark engine on S3, through s3a and an S3 server on 127.0.0.1, gives what the official Lance
 * cleanup gives there, through the notebook API and through {@code CALL lance.cleanup}.
 *
 * <p>As in common's {@code S3CleanupIT}: two tables are written into the bucket by the Lance SDK by
 * one recipe (so object mtimes are the server's clock, as on S3). Their data file names differ, so
 * name-by-name comparisons stay on one table:
 * <ol>
 *   <li>table {@code sdk}: the Spark engine's dry run lists files; the SDK's cleanup must then delete
 *       exactly those, with the dry run's counters;
 *   <li>table {@code ours}: {@code CALL lance.cleanup(..., dry_run => true, options => map(...))}
 *       lists files; the notebook API's real run must then delete exactly those;
 *   <li>across the two: the same counters (bytes aside: manifests encode different UUIDs), the same
 *       files per top-level directory, the same content in every remaining version, read from S3.
 * </ol>
 */
class SparkS3CleanupIT {
  private static final String BUCKET = "spark-cleanup";
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @Test
  void cleansLikeLanceOnObjectsTheSdkWrote() {
    LanceTableFixture sdkTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "sdk.lance");
    LanceTableFixture ourTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "ours.lance");
    ContractPolicy policy = S3Tables.oldHistory(sdkTable);
    Instant cutoff = policy.beforeTimestamp();

    // (1) Lance deletes exactly what the Spark engine's dry run lists, with its counters.
    SortedMap<String, Long> sdkBefore = objects("sdk.lance");
    Set<String> sparkPlanned = new ConcurrentSkipListSet<>();
    CleanupResult dryRun = policy.applyTo(cleanup("sdk.lance"))
        .dryRun(true).onRemovedFile(f -> sparkPlanned.add(f.path())).execute();
    OracleStats reference =
        LanceOracle.cleanup(sdkTable.uri(), sdkTable.storageOptions(), policy.toOracle()).stats();
    SortedMap<String, Long> sdkAfter = objects("sdk.lance");
    assertThat(S3Tables.removed(sdkBefore, sdkAfter)).as("objects the SDK deleted vs the Spark dry run").isEqualTo(sparkPlanned);
    assertThat(CleanupContractTest.countersOf(dryRun)).as("dry-run counters").isEqualTo(reference);
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();

    // (2) CALL's dry run with the store settings as options lists what the real run then deletes.
    SortedMap<String, Long> ourBefore = objects("ours.lance");
    Set<String> called = SPARK.sql(
            "CALL lance.cleanup(table => " + CounterRows.quote(S3.s3aUri("ours.lance"))
                + ", older_than => " + CounterRows.quote(cutoff.toString())
                + ", before_version => " + policy.beforeVersion().getAsLong()
                + ", dry_run => true, options => " + CounterRows.mapLiteral(S3.hadoopSettings()) + ")")
        .collectAsList().stream()
        .map(row -> row.<String>getAs("path"))
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(objects("ours.lance")).as("objects after a dry run").isEqualTo(ourBefore);
    CleanupResult ours = policy.applyTo(cleanup("ours.lance")).execute();
    SortedMap<String, Long> ourAfter = objects("ours.lance");
    assertThat(S3Tables.removed(ourBefore, ourAfter)).as("objects the Spark engine deleted vs CALL's dry run").isEqualTo(called);
    assertThat(ours.counters().failedDeletes()).isZero();

    // (3) The twins end alike.
    S3Tables.assertEndsLikeTheSdk(ours, reference, ourAfter, sdkAfter, ourTable, sdkTable);
  }

  @Test
  void callReadsTheStoreSettingsFromTheSession() {
    LanceTableFixture table = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "session.lance");
    long latest = table.latestVersion();
    Map<String, String> settings = S3.hadoopSettings();
    settings.forEach((key, value) -> SPARK.session().conf().set(key, value));
    try {
      Row row = CounterRows.single(SPARK.session(),
          "CALL lance.cleanup(table => " + CounterRows.quote(S3.s3aUri("session.lance"))
              + ", older_than => '0s')");

      assertThat(row.<Long>getAs("old_versions")).isEqualTo(latest - 1);
      assertThat(row.<Long>getAs("failed_deletes")).isZero();
      assertThat(table.versions()).containsExactly(latest);
      assertThat(ReadBack.snapshot(table.uri(), table.storageOptions()).unreadable()).isEmpty();
    } finally {
      settings.keySet().forEach(SPARK.session().conf()::unset);
    }
  }

  /**
   * Listed from an S3 Inventory report in Parquet ({@code inventory =>}) or from a view of the
   * objects ({@code file_list_view =>}, a DataFrame as a report read by Spark would give), the run
   * removes exactly what the run that lists the store removes; the executors read the report's
   * data files and the view. {@code remove_orphan_files} takes the report too.
   */
  @Test
  void listsFromAnInventoryReportOrAFileListViewAsFromTheStore() {
    LanceTableFixture table = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "listed.lance");
    ContractPolicy policy = S3Tables.oldHistory(table);
    Set<String> listed = new ConcurrentSkipListSet<>();
    policy.applyTo(cleanup("listed.lance")).dryRun(true).onRemovedFile(f -> listed.add(f.path())).execute();
    S3.server().putOrphan(BUCKET, "listed.lance/data/orphan.lance");
    S3.server().createBucket("inventory");
    String manifest = new S3InventoryReport().inParquet().rowsPerFile(9).write(S3.server(), BUCKET, "inventory", "reports");
    String call = "CALL lance.cleanup(table => " + CounterRows.quote(S3.s3aUri("listed.lance"))
        + ", older_than => " + CounterRows.quote(policy.beforeTimestamp().toString())
        + ", before_version => " + policy.beforeVersion().getAsLong()
        + ", options => " + CounterRows.mapLiteral(S3.hadoopSettings());

    Set<String> fromReport = SPARK.sql(call + ", dry_run => true, inventory => " + CounterRows.quote(manifest) + ")")
        .collectAsList().stream()
        .map(row -> row.<String>getAs("path"))
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(listed).as("files the listing's run removes").hasSizeGreaterThan(5);
    assertThat(fromReport).as("files the Parquet report's run removes").isEqualTo(listed);
    List<Row> orphans = SPARK.sql("CALL lance.remove_orphan_files(table => " + CounterRows.quote(S3.s3aUri("listed.lance"))
            + ", older_than => '0s', allow_short_retention => true, dry_run => true, options => "
            + CounterRows.mapLiteral(S3.hadoopSettings()) + ", inventory => " + CounterRows.quote(manifest) + ")")
        .collectAsList();
    assertThat(orphans).as("remove_orphan_files from the report").singleElement()
        .satisfies(orphan -> assertThat(orphan.<String>getAs("path")).isEqualTo("data/orphan.lance"));

    FileListViews.register(
        SPARK.session(), "listed_files", S3.s3aUri("listed.lance"), S3.storageConf().toConfiguration(), path -> true);
    SortedMap<String, Long> before = objects("listed.lance");
    Row row = CounterRows.single(SPARK.session(), call + ", file_list_view => 'listed_files')");
    assertThat(S3Tables.removed(before, objects("listed.lance"))).as("removed through the view").isEqualTo(listed);
    assertThat(row.<Long>getAs("failed_deletes")).isZero();
  }

  private static SparkCleanupAction cleanup(String key) {
    return LanceMaintenance.of(SPARK.session()).cleanup(S3.s3aUri(key), S3.hadoopSettings());
  }

  private static SortedMap<String, Long> objects(String key) {
    return TableCopies.listFiles(S3.s3aUri(key), S3.storageConf().toConfiguration());
  }
}
