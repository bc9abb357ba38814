package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.DeleteRoute;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Our cleanup on S3, through Hadoop's s3a client and an S3 server on 127.0.0.1, gives what the
 * official Lance cleanup gives there.
 *
 * <p>Tables are written into the bucket by the Lance SDK itself, so every object's mtime is the
 * server's clock at the write, as on real S3 (an upload or a server-side copy would give every
 * object the copy time, which changes what cleanup may delete). Two tables are written by the
 * same recipe. Their file names differ (Lance names data files with random UUIDs), so they are not
 * compared name by name; instead each comparison that needs names stays on one table:
 * <ol>
 *   <li>table {@code sdk}: our dry run lists the files it would delete, then the SDK's cleanup
 *       runs; the SDK must delete exactly that list, and its counters must equal our dry run's;
 *   <li>table {@code ours}: our dry run, then our real cleanup (bulk deletes over s3a); it must
 *       delete exactly what its dry run listed;
 *   <li>across the two: the same counters, the same remaining files per top-level directory, and the same
 *       content in every remaining version, read back through the SDK from S3.
 * </ol>
 * Our dry run and our real run make the same decisions (the sweep only counts instead of
 * deleting), so (1) and (2) together say our real cleanup deletes what Lance deletes.
 */
class S3CleanupIT {
  private static final String BUCKET = "lance-cleanup";
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);
  private static final int LISTING_PAGE = 3;

  /**
   * One spill partition, so that the sweep holds every doomed file in one buffer: the requests the
   * server sees are then predictable (the engine's default 64 partitions each flush their own
   * batch, and s3a sends a one-key page as a plain DELETE). Listings in pages of {@value
   * #LISTING_PAGE} keys: every directory of the table takes several, so that its walk goes in key
   * ranges side by side (storage.S3KeyRangeListing), as a directory of thousands of files does.
   */
  private static CleanupAction ourCleanup(String key) {
    Map<String, String> smallPages = new HashMap<>(S3.hadoopSettings());
    smallPages.put("fs.s3a.paging.maximum", Integer.toString(LISTING_PAGE));
    return new LocalCleanupAction(
            TableLocation.of(S3.s3aUri(key)),
            HadoopTableStorage.factory(StorageConf.of(smallPages)),
            Clock.systemUTC())
        .partitions(1);
  }

  /** What our dry run would delete, and its counters. */
  private record DryRun(Set<String> paths, CleanupResult result) {}

  private static DryRun dryRun(String key, ContractPolicy policy) {
    Set<String> listed = new ConcurrentSkipListSet<>();
    CleanupResult result =
        policy.applyTo(ourCleanup(key)).dryRun(true).onRemovedFile(f -> listed.add(f.path())).execute();
    return new DryRun(listed, result);
  }

  private static SortedMap<String, Long> objects(String key) {
    return TableCopies.listFiles(S3.s3aUri(key), S3.storageConf().toConfiguration());
  }

  @Test
  void cleansLikeLanceOnObjectsTheSdkWrote() {
    LanceTableFixture sdkTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "sdk.lance");
    LanceTableFixture ourTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "ours.lance");
    ContractPolicy policy = S3Tables.oldHistory(sdkTable);

    // (1) Lance deletes exactly what our dry run lists on the same objects, with our counters.
    SortedMap<String, Long> sdkBefore = objects("sdk.lance");
    DryRun sdkPlanned = dryRun("sdk.lance", policy);
    OracleStats reference =
        LanceOracle.cleanup(sdkTable.uri(), sdkTable.storageOptions(), policy.toOracle()).stats();
    SortedMap<String, Long> sdkAfter = objects("sdk.lance");
    assertThat(S3Tables.removed(sdkBefore, sdkAfter)).as("objects the SDK deleted vs our dry run").isEqualTo(sdkPlanned.paths());
    assertThat(CleanupContractTest.countersOf(sdkPlanned.result())).as("counters").isEqualTo(reference);
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();

    // (2) Our real cleanup deletes exactly what its dry run lists, in bulk requests only.
    SortedMap<String, Long> ourBefore = objects("ours.lance");
    DryRun ourDryRun = dryRun("ours.lance", policy);
    Set<String> ourPlanned = ourDryRun.paths();
    S3.calls().reset();
    CleanupResult ours = policy.applyTo(ourCleanup("ours.lance")).execute();
    SortedMap<String, Long> ourAfter = objects("ours.lance");
    assertThat(S3Tables.removed(ourBefore, ourAfter)).as("objects our cleanup deleted vs its dry run").isEqualTo(ourPlanned);
    assertThat(ours.counters().failedDeletes()).isZero();
    long manifests = ours.counters().manifestFilesRemoved();
    assertThat(S3.calls().bulkDeleteSizes())
        .as("keys per DeleteObjects request: the other files, then the expired manifests")
        .containsExactly((int) (ourPlanned.size() - manifests), (int) manifests);
    assertThat(S3.calls().singleDeleteKeys()).as("single-object DELETE requests").isEmpty();

    assertThat(ours.counters()).as("counters of the real run vs its dry run").isEqualTo(ourDryRun.result().counters());

    // (3) The twins end alike.
    S3Tables.assertEndsLikeTheSdk(ours, reference, ourAfter, sdkAfter, ourTable, sdkTable);
  }

  @Test
  void deletesABatchInOneBulkRequestPerPage() {
    StorageConf threeKeysAPage = S3.storageConf(3);
    TableLocation location = TableLocation.of(S3.s3aUri("bulk"));
    try (TableStorage storage = new HadoopTableStorage(location, threeKeysAPage)) {
      List<String> keys = IntStream.range(0, 3).mapToObj(i -> "data/f" + i + ".lance").toList();
      keys.forEach(k -> storage.write(k, k.getBytes(StandardCharsets.UTF_8)));
      S3.calls().reset();

      assertThat(((HadoopTableStorage) storage).deleteRoute()).isEqualTo(DeleteRoute.BULK);
      assertThat(storage.maxDeleteBatchSize()).isEqualTo(3);
      assertThat(storage.deleteBatch(keys)).as("failures").isEmpty();

      assertThat(S3.calls().bulkDeleteSizes()).as("keys per DeleteObjects request").containsExactly(3);
      assertThat(S3.calls().singleDeleteKeys()).isEmpty();
      assertThat(objects("bulk")).isEmpty();
      assertThat(storage.deleteBatch(keys)).as("deleting missing keys is not a failure").isEmpty();
    }
  }

  /**
   * With s3a's multi-object delete switched off its bulk delete is one key a page: the storage then
   * deletes a page by single requests in parallel, each key once.
   */
  @Test
  void withoutMultiObjectDeleteAPageGoesAsSingleRequests() {
    java.util.Map<String, String> settings = new java.util.HashMap<>(S3.hadoopSettings());
    settings.put("fs.s3a.multiobjectdelete.enable", "false");
    TableLocation location = TableLocation.of(S3ProxyServer.s3aUri(BUCKET, "single"));
    try (HadoopTableStorage storage = new HadoopTableStorage(location, StorageConf.of(settings))) {
      List<String> keys = IntStream.range(0, 20).mapToObj(i -> "data/f" + i + ".lance").toList();
      keys.forEach(k -> storage.write(k, k.getBytes(StandardCharsets.UTF_8)));
      S3.calls().reset();

      assertThat(storage.deleteRoute()).isEqualTo(DeleteRoute.PARALLEL_SINGLE);
      assertThat(storage.deleteBatch(keys)).as("failures").isEmpty();

      assertThat(S3.calls().bulkDeleteSizes()).as("DeleteObjects requests").isEmpty();
      assertThat(new java.util.TreeSet<>(S3.calls().singleDeleteKeys()))
          .as("keys of single-object DELETE requests")
          .isEqualTo(new java.util.TreeSet<>(keys.stream().map(k -> "single/" + k).toList()));
      assertThat(objects("single")).isEmpty();
    }
  }

  /**
   * Every request costs a round trip on an object store: a ranged read is one GET (no HEAD first),
   * a whole-file read one HEAD and one GET, and the store asks for many requests in flight.
   */
  @Test
  void readsARangeInOneRequest() {
    TableLocation location = TableLocation.of(S3.s3aUri("reads"));
    try (TableStorage storage = new HadoopTableStorage(location, S3.storageConf())) {
      byte[] content = "0123456789abcdefghij".getBytes(StandardCharsets.UTF_8);
      storage.write("_versions/1.manifest", content);
      S3.calls().reset();

      assertThat(storage.read("_versions/1.manifest", 3, 5)).asString(StandardCharsets.UTF_8).isEqualTo("34567");
      assertThat(S3.calls().count("getBlob")).as("GET requests").isEqualTo(1);
      assertThat(S3.calls().count("blobMetadata")).as("HEAD requests").isZero();

      assertThat(storage.readFully("_versions/1.manifest")).isEqualTo(content);
      assertThat(S3.calls().count("getBlob")).as("GET requests").isEqualTo(2);
      assertThat(S3.calls().count("blobMetadata")).as("HEAD requests").isEqualTo(1);

      assertThatThrownBy(() -> storage.read("_versions/1.manifest", 15, 10))
          .as("a range past the end").isInstanceOf(StorageException.class);
      assertThat(storage.suggestedConcurrency()).isGreaterThanOrEqualTo(32);
    }
  }
}
