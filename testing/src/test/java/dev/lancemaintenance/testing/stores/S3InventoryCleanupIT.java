package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.cleanup.MissingFilesException;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.inventory.InventoryException;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cleanup that lists the table from an S3 Inventory report (generated in AWS's CSV or Parquet
 * format from the test server's own listing) instead of the store: it removes what a cleanup that lists the
 * store removes, and what Lance's own cleanup removes; it never removes what the report does not
 * show, nor versions or files newer than the report; a report it cannot use refuses the run with
 * nothing deleted.
 */
class S3InventoryCleanupIT {
  private static final String BUCKET = "warehouse";
  private static final String REPORTS = "inventory";
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);

  @BeforeAll
  static void createReportBucket() {
    S3.server().createBucket(REPORTS);
  }

  private static LocalCleanupAction ourCleanup(String key) {
    return new LocalCleanupAction(
        TableLocation.of(S3.s3aUri(key)), HadoopTableStorage.factory(S3.storageConf()), Clock.systemUTC());
  }

  /** What a dry run would delete, and its counters. */
  private record DryRun(Set<String> paths, CleanupResult result) {}

  private static DryRun dryRun(CleanupAction action) {
    Set<String> listed = new ConcurrentSkipListSet<>();
    CleanupResult result = action.dryRun(true).onRemovedFile(f -> listed.add(f.path())).execute();
    return new DryRun(listed, result);
  }

  private static SortedMap<String, Long> objects(String key) {
    return TableCopies.listFiles(S3.s3aUri(key), S3.storageConf().toConfiguration());
  }

  private static String report(S3InventoryReport report) {
    return report.rowsPerFile(7).write(S3.server(), BUCKET, REPORTS, "reports");
  }

  @Test
  void removesWhatTheListingAndTheSdkRemove() {
    LanceTableFixture table = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "same.lance");
    ContractPolicy policy = S3Tables.oldHistory(table);
    String manifest = report(new S3InventoryReport());
    String parquetManifest = report(new S3InventoryReport().inParquet());

    DryRun listed = dryRun(policy.applyTo(ourCleanup("same.lance")));
    DryRun fromReport = dryRun(policy.applyTo(ourCleanup("same.lance")).inventory(manifest));
    DryRun fromParquet = dryRun(policy.applyTo(ourCleanup("same.lance")).inventory(parquetManifest));
    assertThat(listed.paths()).as("files the listing's run removes").hasSizeGreaterThan(5);
    assertThat(fromReport.paths()).as("files the report's run removes").isEqualTo(listed.paths());
    assertThat(fromReport.result().counters()).as("counters").isEqualTo(listed.result().counters());
    assertThat(fromParquet.paths()).as("files the Parquet report's run removes").isEqualTo(fromReport.paths());
    assertThat(fromParquet.result().counters()).as("counters from Parquet").isEqualTo(fromReport.result().counters());

    SortedMap<String, Long> before = objects("same.lance");
    OracleStats sdk = LanceOracle.cleanup(table.uri(), table.storageOptions(), policy.toOracle()).stats();
    assertThat(S3Tables.removed(before, objects("same.lance"))).as("what the SDK removed").isEqualTo(fromReport.paths());
    assertThat(CleanupContractTest.countersOf(fromReport.result())).as("the SDK's counters").isEqualTo(sdk);
  }

  @Test
  void aFileTheReportDoesNotShowStays() {
    LanceTableFixture table = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "partial.lance");
    ContractPolicy policy = S3Tables.oldHistory(table);
    Set<String> listed = dryRun(policy.applyTo(ourCleanup("partial.lance"))).paths();
    String missed = listed.stream().filter(path -> path.startsWith("data/")).findFirst().orElseThrow();
    String manifest = report(new S3InventoryReport().without("partial.lance/" + missed));

    SortedMap<String, Long> before = objects("partial.lance");
    CleanupResult result = policy.applyTo(ourCleanup("partial.lance")).inventory(manifest).execute();

    Set<String> expected = new TreeSet<>(listed);
    expected.remove(missed);
    assertThat(S3Tables.removed(before, objects("partial.lance"))).as("removed").isEqualTo(expected);
    assertThat(objects("partial.lance")).as("the file the report does not show").containsKey(missed);
    assertThat(result.counters().dataFilesRemoved()).isPositive();
  }

  /**
   * A report taken in the middle of the history: the versions committed after it stay whatever the
   * policy says, as in a listing run whose cut-off is the report's time, and nothing the report
   * shows modified after it goes.
   */
  @Test
  void versionsAndFilesNewerThanTheReportStay() {
    LanceTableFixture table = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "newer.lance");
    ContractPolicy policy = S3Tables.oldHistory(table);
    Instant taken = table.manifestTimestamp(table.latestVersion() - 3).plusMillis(1);
    String manifest = report(new S3InventoryReport().takenAt(taken));

    DryRun whole = dryRun(policy.applyTo(ourCleanup("newer.lance")));
    DryRun narrowed = dryRun(ContractPolicy.before("until the report", taken)
        .withBeforeVersion(table.latestVersion() - 1)
        .applyTo(ourCleanup("newer.lance")));
    SortedMap<String, Long> before = objects("newer.lance");
    CleanupResult result = policy.applyTo(ourCleanup("newer.lance")).inventory(manifest).execute();

    Set<String> removed = S3Tables.removed(before, objects("newer.lance"));
    assertThat(narrowed.paths()).as("a listing run up to the report removes less than the whole policy")
        .isNotEmpty().isNotEqualTo(whole.paths());
    assertThat(removed).as("removed from the report").isEqualTo(narrowed.paths());
    assertThat(result.counters().oldVersions()).isEqualTo(narrowed.result().counters().oldVersions());
    removed.forEach(path -> assertThat(before).containsKey(path));
  }

  /**
   * {@code remove_orphan_files} from a Parquet report (through the option map, as every entry point
   * passes it): of the uncommitted objects, only the one the report lists goes; the one it misses
   * and the one written after it stay, though a run that lists the store up to the report's time
   * would remove the first two.
   */
  @Test
  void removeOrphanFilesRemovesOnlyTheOrphansTheReportLists() {
    S3Tables.writeCompactedHistory(S3.server(), BUCKET, "orphans.lance");
    S3.server().putOrphan(BUCKET, "orphans.lance/data/listed-orphan.lance");
    S3.server().putOrphan(BUCKET, "orphans.lance/data/missed-orphan.lance");
    String manifest = report(new S3InventoryReport().inParquet().without("orphans.lance/data/missed-orphan.lance"));
    Instant taken = Instant.now();
    S3.server().putOrphan(BUCKET, "orphans.lance/data/later-orphan.lance");

    Set<String> listedUpToTheReport = dryRun(ourCleanup("orphans.lance").orphanFilesOnly()
        .beforeTimestamp(taken).allowShortRetention(true)).paths();
    SortedMap<String, Long> before = objects("orphans.lance");
    CleanupResult result = ourCleanup("orphans.lance").orphanFilesOnly()
        .options(Map.of("older_than", "0s", "allow_short_retention", "true", "inventory", manifest))
        .execute();

    assertThat(listedUpToTheReport).as("a run listing the store up to the report's time")
        .contains("data/listed-orphan.lance", "data/missed-orphan.lance");
    assertThat(S3Tables.removed(before, objects("orphans.lance"))).as("removed from the report")
        .containsExactly("data/listed-orphan.lance");
    assertThat(result.counters().oldVersions()).as("versions expired").isZero();
    assertThat(objects("orphans.lance")).containsKeys("data/missed-orphan.lance", "data/later-orphan.lance");
  }

  @Test
  void aCorruptReportOrOneOfAnotherPrefixOrBucketRefusesWithNothingDeleted() {
    LanceTableFixture table = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "elsewhere.lance");
    ContractPolicy policy = S3Tables.oldHistory(table);
    SortedMap<String, Long> before = objects("elsewhere.lance");
    String otherBucket = new S3InventoryReport().write(S3.server(), REPORTS, REPORTS, "self");
    S3InventoryReport withoutTheTable = new S3InventoryReport();
    before.keySet().forEach(path -> withoutTheTable.without("elsewhere.lance/" + path));
    String otherPrefix = report(withoutTheTable);
    String corrupt = S3ProxyServer.s3aUri(REPORTS, "reports/broken/manifest.json");
    S3.server().blobStore().putBlob(REPORTS, S3.server().blobStore().blobBuilder("reports/broken/manifest.json")
        .payload("{\"sourceBucket\": \"warehouse\", \"fileFormat\": \"CSV\", \"files\": [".getBytes(StandardCharsets.UTF_8))
        .build());

    assertThatThrownBy(() -> policy.applyTo(ourCleanup("elsewhere.lance")).inventory(corrupt).execute())
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining(corrupt)
        .hasMessageContaining("not valid JSON");

    assertThatThrownBy(() -> policy.applyTo(ourCleanup("elsewhere.lance")).inventory(otherBucket).execute())
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining(otherBucket)
        .hasMessageContaining("not the bucket of table");
    assertThatThrownBy(() -> policy.applyTo(ourCleanup("elsewhere.lance")).inventory(otherPrefix).execute())
        .isInstanceOf(MissingFilesException.class)
        .hasMessageContaining("listed from S3 Inventory " + otherPrefix);
    assertThat(objects("elsewhere.lance")).as("objects after the refusals").isEqualTo(before);
  }
}
