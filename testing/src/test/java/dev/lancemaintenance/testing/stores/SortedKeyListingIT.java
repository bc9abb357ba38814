package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.BlobMetadata;
import org.jclouds.blobstore.domain.MultipartPart;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.CopyOptions;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.jclouds.blobstore.options.PutOptions;
import org.jclouds.io.Payloads;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ListObjectsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The benchmark's indexed listing ({@link S3ProxyServer#startIndexed()}) answers as jclouds' plain
 * in-memory store does, page by page: on the same store through jclouds (every option the plain
 * store takes, every field of every entry), and over HTTP through the AWS SDK against a plain server
 * holding the same keys, before and after writes of every kind (puts, deletes, copies, a multipart
 * upload whose parts the store keeps under keys of its own, a cleared container).
 */
class SortedKeyListingIT {
  private static final String BUCKET = "listing";
  /** Prefixes, delimiters, a key that ends in its delimiter, the plain store's NO_PREFIX, and odd names. */
  private static final List<String> ODD_KEYS = List.of(
      "a", "a/", "a/b", "a/b/", "a/b/c", "a//d", "a/b-c", "a-b", "ab", "abc/d", "b", "b/c/d/e",
      "NO_PREFIX/x", "NO_PREFIX/", "NO_PREFIXx/y", "sp ace/k", "\u00e9/\u00fc", "d/e/f.lance", "d/e/g.lance", "d/h",
      "_versions/18446744073709551614.manifest", "_transactions/0-x.txn", "z~", "z/~");
  /** Names the HTTP comparison leaves out: U+FFFF is the plain store's own upper bound. */
  private static final List<String> UNSENDABLE = List.of("x\uffffy", "\uffffz", "a/\uffff");

  private S3ProxyServer plain;
  private S3ProxyServer indexed;

  @BeforeEach
  void startServers() {
    plain = S3ProxyServer.start();
    indexed = S3ProxyServer.startIndexed();
    plain.createBucket(BUCKET);
    indexed.createBucket(BUCKET);
  }

  @AfterEach
  void stopServers() {
    plain.close();
    indexed.close();
  }

  @Test
  void onTheSameStoreEveryPageIsThePlainStoresPage() {
    BlobStore store = plain.blobStore();
    BlobStore sorted = SortedKeyListing.over(store);
    for (String key : allKeys(true)) {
      put(sorted, key, key);
    }
    sorted.putBlob(BUCKET, sorted.blobBuilder("meta/k").payload("m").userMetadata(Map.of("Owner", "x")).build());
    assertSamePages(store, sorted, "written");

    sorted.removeBlob(BUCKET, "a/b");
    sorted.removeBlobs(BUCKET, List.of("data/00007.lance", "data/00500.lance", "NO_PREFIX/", "no-such-key"));
    put(sorted, "a/b/c", "overwritten, longer");
    put(sorted, "a/b/new", "new");
    sorted.copyBlob(BUCKET, "d/h", BUCKET, "d/h-copy", CopyOptions.NONE);
    assertSamePages(store, sorted, "after deletes, an overwrite, a put and a copy");

    MultipartUpload upload = sorted.initiateMultipartUpload(BUCKET, sorted.blobBuilder("mpu/big").build().getMetadata(), PutOptions.NONE);
    MultipartPart part = sorted.uploadMultipartPart(upload, 1, Payloads.newByteArrayPayload("part".getBytes(StandardCharsets.UTF_8)));
    assertThat(store.list(BUCKET, ListContainerOptions.Builder.prefix(".mpus-").recursive()))
        .as("the store keeps an upload's parts under keys of its own").isNotEmpty();
    assertSamePages(store, sorted, "during a multipart upload");
    sorted.completeMultipartUpload(upload, List.of(part));
    assertSamePages(store, sorted, "after the multipart upload");

    sorted.clearContainer(BUCKET);
    put(sorted, "after/clear", "x");
    assertSamePages(store, sorted, "after clearing the container");
  }

  @Test
  void overHttpEveryPageIsThePlainServersPage() {
    for (String key : allKeys(false)) {
      put(plain.blobStore(), key, key);
      put(indexed.blobStore(), key, key);
    }
    try (S3Client plainClient = client(plain.endpoint()); S3Client indexedClient = client(indexed.endpoint())) {
      assertSameHttpPages(plainClient, indexedClient, "written");
      for (S3Client client : List.of(plainClient, indexedClient)) {
        client.deleteObjects(b -> b.bucket(BUCKET).delete(Delete.builder().objects(
            Stream.of("a/b", "data/00001.lance", "data/01099.lance", "NO_PREFIX/x")
                .map(key -> ObjectIdentifier.builder().key(key).build()).toList()).build()));
        client.deleteObject(b -> b.bucket(BUCKET).key("ab"));
        client.putObject(b -> b.bucket(BUCKET).key("a/b/put-over-http"), RequestBody.fromString("p"));
        client.copyObject(b -> b.sourceBucket(BUCKET).sourceKey("d/h").destinationBucket(BUCKET).destinationKey("d/h2"));
      }
      assertSameHttpPages(plainClient, indexedClient, "after deletes, a put and a copy over HTTP");
    }
  }

  @Test
  void aBackdatedObjectShowsItsTimeToS3Clients() {
    put(indexed.blobStore(), "data/old.lance", "old");
    Instant commit = java.time.Instant.parse("2026-10-28T08:15:30Z");
    indexed.backdate(BUCKET, "data/old.lance", commit);
    try (S3Client client = client(indexed.endpoint())) {
      assertThat(client.listObjectsV2(b -> b.bucket(BUCKET).prefix("data/")).contents())
          .extracting(S3Object::key, S3Object::lastModified)
          .containsExactly(tuple("data/old.lance", commit));
      assertThat(client.headObject(b -> b.bucket(BUCKET).key("data/old.lance")).lastModified()).isEqualTo(commit);
    }
  }

  /** The odd keys and 1,100 data files: more than a default page under one prefix. */
  private static List<String> allKeys(boolean withUnsendable) {
    List<String> keys = new ArrayList<>(ODD_KEYS);
    if (withUnsendable) {
      keys.addAll(UNSENDABLE);
    }
    IntStream.range(0, 1100).mapToObj(i -> String.format("data/%05d.lance", i)).forEach(keys::add);
    return keys;
  }

  private static void put(BlobStore store, String key, String content) {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    store.putBlob(BUCKET, store.blobBuilder(key).payload(bytes).contentLength(bytes.length).build());
  }

  private static void assertSamePages(BlobStore plainStore, BlobStore sorted, String when) {
    List<String> prefixes = Arrays.asList(null, "", "a", "a/", "a/b", "a/b/", "NO_PREFIX", "d/e/", "data/", "data/01", "x", "zz");
    List<String> markers = Arrays.asList(null, "", "a", "a/", "a/b", "a/b/", "a/b/c", "NO_PREFIX/", "abc", "d/e/f.lance",
        "data/00999.lance", "data/01099.lance", "x\uffffy", "\uffff", "zzz");
    for (String prefix : prefixes) {
      for (String delimiter : Arrays.asList(null, "/", "-", "b/", "")) {
        for (boolean recursive : List.of(true, false)) {
          if (recursive && delimiter != null) {
            continue;
          }
          for (Integer size : Arrays.asList(null, 0, 1, 3, 1000)) {
            for (String marker : markers) {
              ListContainerOptions options = options(prefix, delimiter, recursive, size, marker);
              assertThat(describe(sorted.list(BUCKET, options)))
                  .as("%s: %s", when, options)
                  .isEqualTo(describe(plainStore.list(BUCKET, options)));
            }
          }
          for (Integer size : Arrays.asList(null, 7)) {
            assertSameWalk(plainStore, sorted, options(prefix, delimiter, recursive, size, null), when);
          }
        }
      }
    }
    assertThat(describe(sorted.list(BUCKET))).as("%s: list(container)", when).isEqualTo(describe(plainStore.list(BUCKET)));
    ListContainerOptions detailed = ListContainerOptions.Builder.prefix("meta/").recursive().withDetails();
    assertThat(describe(sorted.list(BUCKET, detailed))).as("%s: detailed", when).isEqualTo(describe(plainStore.list(BUCKET, detailed)));
  }

  /** Page after page, each from the next marker of the one before, to the end. */
  private static void assertSameWalk(BlobStore plainStore, BlobStore sorted, ListContainerOptions first, String when) {
    String marker = null;
    int pages = 0;
    do {
      ListContainerOptions options = copyWithMarker(first, marker);
      PageSet<? extends StorageMetadata> expected = plainStore.list(BUCKET, options);
      assertThat(describe(sorted.list(BUCKET, options))).as("%s: page %d of %s", when, pages, options).isEqualTo(describe(expected));
      marker = expected.getNextMarker();
      pages++;
    } while (marker != null && pages < 5000);
  }

  private static ListContainerOptions options(String prefix, String delimiter, boolean recursive, Integer size, String marker) {
    ListContainerOptions options = new ListContainerOptions();
    if (prefix != null) {
      options.prefix(prefix);
    }
    if (delimiter != null) {
      options.delimiter(delimiter);
    }
    if (recursive) {
      options.recursive();
    }
    if (size != null) {
      options.maxResults(size);
    }
    if (marker != null) {
      options.afterMarker(marker);
    }
    return options;
  }

  private static ListContainerOptions copyWithMarker(ListContainerOptions first, String marker) {
    return options(first.getPrefix(), first.getDelimiter(), first.isRecursive(), first.getMaxResults(), marker);
  }

  /** Every field s3proxy answers with, per entry, and the next marker. */
  private static List<String> describe(PageSet<? extends StorageMetadata> page) {
    List<String> lines = new ArrayList<>();
    for (StorageMetadata entry : page) {
      String user = entry instanceof BlobMetadata blob ? blob.getUserMetadata().toString() : "";
      lines.add(String.join(" | ", String.valueOf(entry.getType()), entry.getName(), String.valueOf(entry.getETag()),
          String.valueOf(entry.getSize()), String.valueOf(entry.getLastModified()), String.valueOf(entry.getTier()), user));
    }
    lines.add("next: " + page.getNextMarker());
    return lines;
  }

  private static void assertSameHttpPages(S3Client plainClient, S3Client indexedClient, String when) {
    for (String prefix : Arrays.asList(null, "a", "a/", "a/b/", "NO_PREFIX", "d/", "data/", "data/010")) {
      for (String delimiter : Arrays.asList(null, "/", "-")) {
        // Pages of one key where a prefix holds at most a hundred (data/010: a hundred of the 1,100
        // data keys): over all of them a walk was 1,100 requests, and the suite's slowest minute.
        List<Integer> sizes = prefix == null || prefix.equals("data/") ? List.of(7, 1000) : List.of(1, 7, 1000);
        for (int size : sizes) {
          assertThat(walkV1(indexedClient, prefix, delimiter, size)).as("%s: V1 %s %s %d", when, prefix, delimiter, size)
              .isEqualTo(walkV1(plainClient, prefix, delimiter, size));
          assertThat(walkV2(indexedClient, prefix, delimiter, size)).as("%s: V2 %s %s %d", when, prefix, delimiter, size)
              .isEqualTo(walkV2(plainClient, prefix, delimiter, size));
        }
      }
    }
  }

  private static List<String> walkV1(S3Client client, String prefix, String delimiter, int size) {
    List<String> pages = new ArrayList<>();
    String marker = null;
    do {
      ListObjectsResponse page = client.listObjects(ListObjectsRequest.builder().bucket(BUCKET).prefix(prefix)
          .delimiter(delimiter).maxKeys(size).marker(marker).build());
      pages.add(describe(page.contents(), page.commonPrefixes()) + " truncated " + page.isTruncated() + " next " + page.nextMarker());
      marker = Boolean.TRUE.equals(page.isTruncated())
          ? (page.nextMarker() != null ? page.nextMarker() : page.contents().get(page.contents().size() - 1).key())
          : null;
    } while (marker != null && pages.size() < 5000);
    return pages;
  }

  private static List<String> walkV2(S3Client client, String prefix, String delimiter, int size) {
    List<String> pages = new ArrayList<>();
    String token = null;
    do {
      ListObjectsV2Response page = client.listObjectsV2(ListObjectsV2Request.builder().bucket(BUCKET).prefix(prefix)
          .delimiter(delimiter).maxKeys(size).continuationToken(token).build());
      pages.add(describe(page.contents(), page.commonPrefixes()) + " truncated " + page.isTruncated() + " next "
          + page.nextContinuationToken());
      token = page.nextContinuationToken();
    } while (token != null && pages.size() < 5000);
    return pages;
  }

  private static String describe(List<S3Object> contents, List<CommonPrefix> prefixes) {
    return contents.stream().map(o -> o.key() + " " + o.size() + " " + o.eTag()).collect(Collectors.joining(", "))
        + " / " + prefixes.stream().map(CommonPrefix::prefix).collect(Collectors.joining(", "));
  }

  private static S3Client client(URI endpoint) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.of(S3ProxyServer.REGION))
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)))
        .forcePathStyle(true)
        .build();
  }
}
