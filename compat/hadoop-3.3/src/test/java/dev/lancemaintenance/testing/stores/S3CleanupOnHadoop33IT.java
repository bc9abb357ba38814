package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.DeleteRoute;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our cleanup on S3 through s3a 3.3.4 (AWS SDK v1), the client of Spark 3.5, gives what the
 * official Lance cleanup gives: on table {@code sdk} the SDK deletes exactly what our dry run lists;
 * on its twin {@code ours} our cleanup deletes exactly what its dry run lists, by one DELETE request
 * per file (s3a 3.3 has no bulk delete API), and the twins end alike. The recipe and the comparison
 * are those of common's {@code S3CleanupIT} for the 3.4 client, which deletes in bulk.
 */
class S3CleanupOnHadoop33IT {
  private static final String BUCKET = "lance-cleanup-33";
  private static S3ProxyServer s3;

  @BeforeAll
  static void startServer() {
    s3 = S3ProxyServer.start();
    s3.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServer() {
    if (s3 != null) {
      s3.close();
    }
  }

  private static CleanupAction cleanupOf(String key) {
    return new LocalCleanupAction(
        TableLocation.of(S3ProxyServer.s3aUri(BUCKET, key)), HadoopTableStorage.factory(s3.storageConf()), Clock.systemUTC());
  }

  private static Set<String> dryRunPaths(String key, ContractPolicy policy) {
    Set<String> listed = new ConcurrentSkipListSet<>();
    policy.applyTo(cleanupOf(key)).dryRun(true).onRemovedFile(f -> listed.add(f.path())).execute();
    return listed;
  }

  private static SortedMap<String, Long> objects(String key) {
    return TableCopies.listFiles(S3ProxyServer.s3aUri(BUCKET, key), s3.storageConf().toConfiguration());
  }

  @Test
  void cleansLikeLanceByOneDeleteRequestPerFile() {
    LanceTableFixture sdkTable = S3Tables.writeCompactedHistory(s3, BUCKET, "sdk.lance");
    LanceTableFixture ourTable = S3Tables.writeCompactedHistory(s3, BUCKET, "ours.lance");
    ContractPolicy policy = S3Tables.oldHistory(sdkTable);

    SortedMap<String, Long> sdkBefore = objects("sdk.lance");
    Set<String> sdkPlanned = dryRunPaths("sdk.lance", policy);
    OracleStats reference = LanceOracle.cleanup(sdkTable.uri(), sdkTable.storageOptions(), policy.toOracle()).stats();
    SortedMap<String, Long> sdkAfter = objects("sdk.lance");
    assertThat(S3Tables.removed(sdkBefore, sdkAfter)).as("objects the SDK deleted vs our dry run").isEqualTo(sdkPlanned);
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();

    SortedMap<String, Long> ourBefore = objects("ours.lance");
    Set<String> ourPlanned = dryRunPaths("ours.lance", policy);
    s3.calls().reset();
    CleanupResult ours = policy.applyTo(cleanupOf("ours.lance")).execute();
    SortedMap<String, Long> ourAfter = objects("ours.lance");

    assertThat(S3Tables.removed(ourBefore, ourAfter)).as("objects our cleanup deleted vs its dry run").isEqualTo(ourPlanned);
    assertThat(ours.counters().failedDeletes()).isZero();
    Set<String> deleteRequests = new TreeSet<>();
    s3.calls().singleDeleteKeys().forEach(k -> deleteRequests.add(k.substring("ours.lance/".length())));
    assertThat(deleteRequests).as("keys of single-object DELETE requests").isEqualTo(ourPlanned);
    S3Tables.assertEndsLikeTheSdk(ours, reference, ourAfter, sdkAfter, ourTable, sdkTable);
    assertThat(CleanupContractTest.countersOf(ours).dataFilesRemoved()).isEqualTo(reference.dataFilesRemoved());
  }

  @Test
  void readsARangeAndDeletesOneRequestPerFile() {
    TableLocation location = TableLocation.of(S3ProxyServer.s3aUri(BUCKET, "pages"));
    try (HadoopTableStorage storage = new HadoopTableStorage(location, s3.storageConf())) {
      storage.write("_versions/1.manifest", "0123456789".getBytes(StandardCharsets.UTF_8));
      assertThat(storage.read("_versions/1.manifest", 3, 5)).asString(StandardCharsets.UTF_8).isEqualTo("34567");

      assertThat(storage.deleteRoute()).isEqualTo(DeleteRoute.PARALLEL_SINGLE);
      s3.calls().reset();
      assertThat(storage.deleteBatch(java.util.List.of("_versions/1.manifest", "_versions/2.manifest")))
          .as("failures (a missing key is deleted)").isEmpty();
      // s3a 3.3 sends no DELETE for a key it finds missing; the DeleteObjects requests it sends
      // here carry its own directory markers, never a table file.
      assertThat(s3.calls().singleDeleteKeys()).as("single-object DELETE requests").containsExactly("pages/_versions/1.manifest");
      assertThat(objects("pages")).isEmpty();
    }
  }
}
