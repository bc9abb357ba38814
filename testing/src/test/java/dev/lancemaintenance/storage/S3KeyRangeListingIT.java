package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.lancemaintenance.testing.stores.S3Bucket;
import dev.lancemaintenance.testing.stores.ThrottlingProxy;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.util.VersionInfo;
import org.jclouds.blobstore.BlobStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A directory walked on S3 (s3proxy through s3a) by {@link HadoopTableStorage}, in key ranges side
 * by side where the client offers them ({@link S3KeyRangeListing}, Hadoop 3.4), against s3a's own
 * {@code listFiles(dir, true)}, entry by entry: the same paths, each once, with the same size and
 * time (in the store's order within a range; the ranges' pages come as they are listed). Pages of
 * 7 keys, so every range takes several pages; names on, just below
 * and just above every split point, in every range, and of no shape the splits know. On the
 * Hadoop 3.3 client (compat/hadoop-3.3) the storage keeps s3a's listing, and the same test checks
 * that it does.
 */
class S3KeyRangeListingIT {
  private static final String BUCKET = "lance-key-ranges";
  private static final int PAGE = 7;
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);

  private static Map<String, String> settings(URI endpoint) {
    Map<String, String> settings = new HashMap<>(S3.hadoopSettings());
    settings.put("fs.s3a.paging.maximum", Integer.toString(PAGE));
    settings.put("fs.s3a.endpoint", endpoint.toString());
    return settings;
  }

  private static void put(String key, int size) {
    BlobStore store = S3.server().blobStore();
    byte[] content = new byte[size];
    store.putBlob(BUCKET, store.blobBuilder(key).payload(content).contentLength(size).build());
  }

  private static String dataName(long leading, String rest) {
    String bits = Long.toBinaryString(leading);
    return "0".repeat(24 - bits.length()) + bits + rest;
  }

  @Test
  void aDirectoryOfManyPagesListsInRangesExactlyAsS3aListsIt() throws IOException {
    String table = "many/t.lance";
    String dirKey = table + "/data/";
    TreeSet<String> names = new TreeSet<>();
    long space = 1L << 24;
    for (int i = 0; i < 150; i++) {
      names.add(dataName(i * (space / 150) + (i * 7919L) % 1000, String.format("%026x.lance", i * 104729L)));
    }
    // Names of no shape the splits know, before, between and after the data files' names.
    names.addAll(List.of(".tmp_staging", "0", "1", "01", "1".repeat(30), "a.txt", "zzz", "~last",
        "\u00e9t\u00e9.lance", "\ud83d\ude00.lance", "\ufffd.bin", "old_$folder$", "sub/", "sub/inner.lance",
        "010101010101010101010101/nested/deep.lance", "10/", "10/x",
        // Keys a Path changes (an escape decoded, a repeated slash and a dot segment dropped) or
        // quotes: named from the Path as s3a names them, not from the key (S3KeyRangeListing.ListedKey).
        "pct%41.lance", "dup//d.lance", "dot/./d.lance", "sp ace.lance", "colon:c.lance"));
    List<String> firstPage = new ArrayList<>(names).subList(0, PAGE);
    List<String> splits = KeyRangeSplits.after(firstPage, PAGE);
    assertThat(splits).as("split points after the first page").hasSizeGreaterThanOrEqualTo(3);
    String lastOfFirstPage = firstPage.get(PAGE - 1);
    List<String> around = new ArrayList<>();
    for (String split : splits) {
      // A split point is the shortest digits of its value: trailing zeros left off.
      long value = Long.parseLong(split + "0".repeat(24 - split.length()), 2);
      around.addAll(List.of(split, split + ".lance", split + "/sub.lance", split + "0", split + "1",
          dataName(value - 1, "ff.lance"), dataName(value, ".lance"), dataName(value + 1, ".lance")));
      if (split.length() > 1) {
        around.add(split.substring(0, split.length() - 1) + ".lance");
      }
    }
    around.removeIf(name -> name.compareTo(lastOfFirstPage) <= 0);
    names.addAll(around);
    assertThat(new ArrayList<>(names).subList(0, PAGE)).as("the first page is unchanged").isEqualTo(firstPage);

    int size = 1;
    for (String name : names) {
      put(dirKey + name, size++ % 97);
    }
    put(dirKey, 0); // the directory's own marker

    try (ThrottlingProxy counting = ThrottlingProxy.start(S3.endpoint(), Integer.MAX_VALUE)) {
      Map<String, String> settings = settings(counting.endpoint());
      long before = counting.requests();
      List<FileEntry> plain = plainListing(settings, table, "data");
      long plainRequests = counting.requests() - before;
      before = counting.requests();
      List<FileEntry> ranged = rangedListing(settings, table, "data");
      long rangedRequests = counting.requests() - before;

      assertThat(ranged).as("the ranged listing, entry by entry").containsExactlyInAnyOrderElementsOf(plain);
      assertThat(plain).extracting(FileEntry::path).as("files planted around every split point")
          .contains(around.stream().filter(name -> !name.endsWith("/")).map(name -> "data/" + name).toArray(String[]::new))
          .doesNotContain("data/sub/", "data/10/", "data/old_$folder$", "data");
      // Each range but the last may read one page into the next range's keys.
      assertThat(rangedRequests).as("requests, against s3a's %d", plainRequests).isLessThanOrEqualTo(plainRequests + splits.size());
    }
  }

  /**
   * With s3a's default pages (up to 5,000 keys; s3proxy answers 1,000) the first page asks for
   * {@link S3KeyRangeListing#FIRST_PAGE_KEYS} keys only, and the ranges after it, one continuing
   * from its token with full pages, still give s3a's listing of one page, entry by entry.
   */
  @Test
  void aSmallFirstPageThenFullPagesInRangesListExactlyAsS3aListsInOnePage() throws IOException {
    String table = "first-page/t.lance";
    long space = 1L << 24;
    int files = 3 * S3KeyRangeListing.FIRST_PAGE_KEYS;
    for (int i = 0; i < files; i++) {
      put(table + "/data/" + dataName(i * (space / files) + (i * 7919L) % 1000, String.format("%026x.lance", i * 104729L)), i % 5);
    }
    Map<String, String> settings = new HashMap<>(S3.hadoopSettings());
    List<FileEntry> plain = plainListing(settings, table, "data");
    assertThat(plain).as("s3a's listing").hasSize(files);
    try (ThrottlingProxy counting = ThrottlingProxy.start(S3.endpoint(), Integer.MAX_VALUE)) {
      settings.put("fs.s3a.endpoint", counting.endpoint().toString());
      assertThat(rangedListing(settings, table, "data")).containsExactlyInAnyOrderElementsOf(plain);
      // On the Hadoop 3.3 client s3a's own walk: one page of 1,000.
      assertThat(counting.requests()).as("requests: a first page, then ranges beside each other")
          .isGreaterThan(VersionInfo.getVersion().startsWith("3.3.") ? 0 : 1);
    }
  }

  @Test
  void aDirectoryOfOnePageAnEmptyOneAMissingOneAndAFileListAsS3aListsThemWithItsRequests() throws IOException {
    String table = "small/t.lance";
    put(table + "/data/a.lance", 3);
    put(table + "/data/b.lance", 4);
    put(table + "/empty/", 0);
    put(table + "/afile", 5);
    put(table + "/markers/sub/", 0);
    try (ThrottlingProxy counting = ThrottlingProxy.start(S3.endpoint(), Integer.MAX_VALUE)) {
      Map<String, String> settings = settings(counting.endpoint());
      for (String dir : List.of("data", "empty", "absent", "afile", "markers")) {
        long before = counting.requests();
        List<FileEntry> plain = plainListing(settings, table, dir);
        long plainRequests = counting.requests() - before;
        before = counting.requests();
        List<FileEntry> ranged = rangedListing(settings, table, dir);
        assertThat(ranged).as(dir).containsExactlyElementsOf(plain);
        assertThat(counting.requests() - before).as("requests to list %s", dir).isLessThanOrEqualTo(plainRequests);
      }
      assertThat(plainListing(settings, table, "afile")).extracting(FileEntry::path).as("a file lists as itself").containsExactly("afile");
    }
  }

  /**
   * A range the store is slow to answer holds back only its own keys: every other range's pages
   * reach the caller while its first request waits (read range after range, the caller waited at
   * that range, and the ranges after it stopped a few pages ahead, so a directory of many pages a
   * range was listed almost a page at a time). Then the held range comes, and the listing is s3a's.
   */
  @Test
  void aRangeTheStoreIsSlowToAnswerHoldsBackOnlyItsOwnKeys() throws Exception {
    String table = "held/t.lance";
    long space = 1L << 24;
    int files = 400;
    List<String> names = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      names.add(dataName(i * (space / files), String.format("%026x.lance", i * 104729L)));
    }
    for (String name : names) {
      put(table + "/data/" + name, 1);
    }
    List<String> splits = KeyRangeSplits.after(names.subList(0, PAGE), PAGE);
    assertThat(splits).as("split points after the first page").hasSizeGreaterThanOrEqualTo(3);
    // The second range, (s1, s2]: its first request starts after s1.
    String heldLow = splits.get(0);
    String heldHigh = splits.get(1);
    long heldKeys = names.stream().filter(name -> name.compareTo(heldLow) > 0 && name.compareTo(heldHigh) <= 0).count();
    assertThat(heldKeys).as("keys of the held range").isGreaterThan(0);
    assertThat(files - heldKeys).as("keys of the other ranges, many pages each")
        .isGreaterThan(4L * PAGE * (splits.size() + 1));
    Map<String, String> settings = new HashMap<>(S3.hadoopSettings());
    settings.put("fs.s3a.paging.maximum", Integer.toString(PAGE));
    List<FileEntry> plain = plainListing(settings, table, "data");

    try (ThrottlingProxy holding = ThrottlingProxy.start(S3.endpoint(), Integer.MAX_VALUE);
        HadoopTableStorage storage =
            new HadoopTableStorage(TableLocation.of(S3.s3aUri(table)), StorageConf.of(settings(holding.endpoint())))) {
      holding.holdRequestsContaining(
          "start-after=" + URLEncoder.encode(table + "/data/" + heldLow, StandardCharsets.UTF_8));
      List<FileEntry> listed = new CopyOnWriteArrayList<>();
      Thread caller = new Thread(() -> storage.listFiles("data", true).forEachRemaining(listed::add));
      caller.start();
      try {
        if (storage.walksInKeyRanges()) {
          long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
          while (listed.size() < files - heldKeys && System.nanoTime() < deadline) {
            Thread.sleep(20);
          }
          assertThat(listed).as("files listed while the second range's first request waits")
              .hasSize((int) (files - heldKeys))
              .extracting(FileEntry::path)
              .noneMatch(path -> path.compareTo("data/" + heldLow) > 0 && path.compareTo("data/" + heldHigh) <= 0);
        }
      } finally {
        holding.releaseHeld();
        caller.join(Duration.ofSeconds(30).toMillis());
      }
      assertThat(caller.isAlive()).as("the listing ended once the held range was answered").isFalse();
      assertThat(listed).as("the whole listing").containsExactlyInAnyOrderElementsOf(plain);
    }
  }

  /**
   * A range whose next page fails while the caller has yet to take the two pages it listed ahead
   * (its queue full) hands the failure on once the caller gets there, after exactly the files
   * listed before it: the listing fails loudly, it neither hangs nor ends early. Names of no shape
   * the splits know make one range, so the requests come in order: the first page, the range's two
   * pages ahead, then the failing one and its retries. s3a's own walk (the Hadoop 3.3 client) asks
   * for the same pages one after another, as the caller reaches them, and fails at the same one.
   */
  @Test
  void aRangeFailingWithItsPagesStillQueuedFailsTheListingAfterThem() throws Exception {
    String table = "failing/t.lance";
    for (int i = 0; i < PAGE * 6; i++) {
      put(table + "/data/" + String.format("f%03d", i), 1);
    }
    try (ThrottlingProxy failing = ThrottlingProxy.start(S3.endpoint(), Integer.MAX_VALUE);
        HadoopTableStorage storage =
            new HadoopTableStorage(TableLocation.of(S3.s3aUri(table)), StorageConf.of(settings(failing.endpoint())))) {
      failing.refuseEveryRequestAfter(failing.requests() + 3);
      Iterator<FileEntry> files = storage.listFiles("data", true);
      List<String> listed = new ArrayList<>();
      assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
        assertThat(files.hasNext()).isTrue();
        // The caller waits until the range has listed its two pages ahead and its next page failed
        // with every retry (the client backs off between them: no new refusal for two seconds), so
        // that the failure meets a full queue.
        // s3a's own walk asks for a page only when the caller reaches it: nothing to wait for.
        long refused = -1;
        while (storage.walksInKeyRanges() && (failing.refused() == 0 || failing.refused() != refused)) {
          refused = failing.refused();
          Thread.sleep(2_000);
        }
        assertThatThrownBy(() -> files.forEachRemaining(file -> listed.add(file.path())))
            .isInstanceOf(StorageException.class)
            .hasMessageContaining("Cannot list " + S3.s3aUri(table) + "/data");
      });
      assertThat(listed).as("the first page and the two the range listed before failing")
          .hasSize(3 * PAGE).startsWith("data/f000").endsWith("data/f" + String.format("%03d", 3 * PAGE - 1));
    }
  }

  /**
   * A store that answers {@code 503 Slow Down} to every third request: each range's refused page is
   * retried under s3a's retry policy, as s3a's own walk retries its pages, and the listing is still
   * s3a's entry by entry. The SDK's client is told not to retry, so that a listing that skipped
   * s3a's retry fails at the first refused page (checked by taking the retry out).
   */
  @Test
  void aThrottledPageIsRetriedAsS3aRetriesIt() throws IOException {
    String table = "throttled/t.lance";
    for (int i = 0; i < PAGE * 6; i++) {
      put(table + "/data/" + String.format("f%03d", i), i % 13);
    }
    try (ThrottlingProxy throttling = ThrottlingProxy.start(S3.endpoint(), 3)) {
      Map<String, String> settings = settings(throttling.endpoint());
      // No retry inside the SDK's client: every retry is s3a's own, the one its walk relies on.
      settings.put("fs.s3a.attempts.maximum", "0");
      List<FileEntry> plain = plainListing(settings, table, "data");
      long refusedBefore = throttling.refused();
      List<FileEntry> ranged = rangedListing(settings, table, "data");
      assertThat(ranged).as("the ranged listing under throttling, entry by entry").containsExactlyElementsOf(plain).hasSize(PAGE * 6);
      assertThat(throttling.refused()).as("refusals during the ranged listing").isGreaterThan(refusedBefore);
    }
  }

  private static List<FileEntry> rangedListing(Map<String, String> settings, String table, String dir) {
    try (HadoopTableStorage storage = new HadoopTableStorage(TableLocation.of(S3.s3aUri(table)), StorageConf.of(settings))) {
      assertThat(storage.walksInKeyRanges()).as("key ranges on a Hadoop 3.4 client, s3a's walk on 3.3")
          .isEqualTo(!VersionInfo.getVersion().startsWith("3.3."));
      List<FileEntry> entries = new ArrayList<>();
      for (Iterator<FileEntry> it = storage.listFiles(dir, true); it.hasNext(); ) {
        entries.add(it.next());
      }
      return entries;
    }
  }

  /** s3a's own {@code listFiles(dir, true)}, as table-relative entries; a missing directory lists as empty. */
  private static List<FileEntry> plainListing(Map<String, String> settings, String table, String dir) throws IOException {
    URI root = URI.create(S3.s3aUri(table));
    try (FileSystem fs = FileSystem.newInstance(root, StorageConf.of(settings).toConfiguration())) {
      List<FileEntry> entries = new ArrayList<>();
      String rootPath = root.getPath() + "/";
      try {
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(new Path(root + "/" + dir), true);
        while (files.hasNext()) {
          LocatedFileStatus status = files.next();
          entries.add(new FileEntry(status.getPath().toUri().getPath().substring(rootPath.length()), status.getLen(),
              status.getModificationTime()));
        }
      } catch (FileNotFoundException missing) {
        return List.of();
      }
      return entries;
    }
  }
}
