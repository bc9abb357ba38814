package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifests above a bound read while a listing goes on ({@link ManifestsReadEarly}) stand for
 * a manifest only when listed again with the identity they were read from: each is then scanned
 * exactly as read at its turn and read once; anything else (another length or time, a failed read,
 * a manifest over the bounds, at or below the bound) is read at its turn, and nothing fails.
 */
class ManifestsReadEarlyIT {
  @TempDir static Path workDir;
  private static LanceTableFixture table;
  /** Versions above it are read early. */
  private static long bound;

  @BeforeAll
  static void writeHistory() {
    table = LanceTableFixture.create(workDir.resolve("t"));
    for (int i = 0; i < 8; i++) {
      table.append(3);
    }
    bound = table.latestVersion() - 4;
  }

  @Test
  void theManifestsAboveTheBoundAreReadOnceAndScannedAsReadAtTheirTurn() {
    for (boolean boundKnownFirst : new boolean[] {true, false}) {
      String when = boundKnownFirst ? "bound known before the listing" : "bound known after it";
      try (CountingStorage storage = new CountingStorage(open())) {
        CompletableFuture<OptionalLong> knownBound = new CompletableFuture<>();
        if (boundKnownFirst) {
          knownBound.complete(OptionalLong.of(bound));
        }
        try (ManifestsReadEarly early = new ManifestsReadEarly(storage, knownBound, 64, ManifestReadAhead.BYTES_AHEAD)) {
          List<ManifestLocation> manifests = listedTo(storage, early);
          knownBound.complete(OptionalLong.of(bound)); // after the listing ended: the entries it gave are read now
          List<ScannedManifest> scanned = scanAll(storage, manifests, early);
          for (ManifestLocation location : manifests) {
            assertThat(storage.reads(location)).as("%s: reads of version %s", when, location.version()).isEqualTo(1);
          }
          assertThat(storage.readEarly).as("%s: the manifests read early", when)
              .containsExactlyInAnyOrderElementsOf(above(manifests, bound).stream().map(ManifestLocation::path).toList());
          List<ScannedManifest> atTheirTurn = scanAll(storage, manifests, ManifestsReadEarly.none());
          for (int i = 0; i < manifests.size(); i++) {
            String what = when + ": version " + manifests.get(i).version();
            assertThat(scanned.get(i).version()).as(what).isEqualTo(atTheirTurn.get(i).version());
            assertThat(scanned.get(i).timestampNanos()).as(what).isEqualTo(atTheirTurn.get(i).timestampNanos());
            assertThat(scanned.get(i).references()).as(what).isEqualTo(atTheirTurn.get(i).references());
          }
        }
      }
    }
  }

  @Test
  void aManifestListedWithAnotherLengthOrTimeIsReadAgainAtItsTurn() {
    try (CountingStorage storage = new CountingStorage(open())) {
      try (ManifestsReadEarly early = new ManifestsReadEarly(
          storage, CompletableFuture.completedFuture(OptionalLong.of(bound)), 64, ManifestReadAhead.BYTES_AHEAD)) {
        List<ManifestLocation> manifests = listedTo(storage, early);
        List<ManifestLocation> newer = above(manifests, bound);
        ManifestLocation touched = newer.get(0);
        ManifestLocation otherTime = new ManifestLocation(touched.path(), touched.version(), touched.size(),
            touched.modificationTimeMillis() + 1, touched.naming());
        assertThat(early.take(otherTime)).as("another modification time").isNull();
        ManifestLocation grown = newer.get(1);
        ManifestLocation otherLength = new ManifestLocation(grown.path(), grown.version(), grown.size() + 1,
            grown.modificationTimeMillis(), grown.naming());
        assertThat(early.take(otherLength)).as("another length").isNull();
        assertThat(early.take(newer.get(2))).as("the same identity").isNotNull();
        assertThat(early.take(newer.get(2))).as("given once").isNull();
      }
    }
  }

  @Test
  void aReadThatFailsEarlyIsReadAtItsTurnAndTheBoundsHold() {
    try (CountingStorage storage = new CountingStorage(open())) {
      List<ManifestLocation> manifests = VersionListing.list(storage, DatasetRef.MAIN);
      List<ManifestLocation> newer = above(manifests, bound);
      storage.failOnce.add(newer.get(0).path());
      try (ManifestsReadEarly early = new ManifestsReadEarly(storage, CompletableFuture.completedFuture(OptionalLong.of(bound)), 2,
          ManifestReadAhead.BYTES_AHEAD)) {
        listedTo(storage, early);
        List<ScannedManifest> scanned = scanAll(storage, newer, early);
        assertThat(scanned).extracting(ScannedManifest::version).containsExactlyElementsOf(newer.stream().map(ManifestLocation::version).toList());
      }
      assertThat(storage.reads(newer.get(0))).as("failed early, then read at its turn").isEqualTo(2);
      assertThat(storage.reads(newer.get(1))).as("read early and taken").isEqualTo(1);
      assertThat(storage.reads(newer.get(2))).as("over the bound of two manifests: read at its turn").isEqualTo(1);
    }
    try (CountingStorage storage = new CountingStorage(open())) {
      try (ManifestsReadEarly early = new ManifestsReadEarly(storage, CompletableFuture.failedFuture(new IllegalStateException("no snapshot")),
          64, ManifestReadAhead.BYTES_AHEAD)) {
        listedTo(storage, early);
      }
      assertThat(storage.readEarly).as("nothing read without a bound").isEmpty();
    }
  }

  private static TableStorage open() {
    return new HadoopTableStorage(TableLocation.of(table.root().toString()), StorageConf.defaults());
  }

  /**
   * The listing's entries, with their attributes, given to {@code early}, its manifests in version
   * order (so that a bound on the reads takes the oldest above the bound); its committed manifests.
   */
  private static List<ManifestLocation> listedTo(TableStorage storage, ManifestsReadEarly early) {
    VersionListing.Directory listed = VersionListing.listDirectory(storage, DatasetRef.MAIN);
    Map<String, FileEntry> byPath = listed.files().stream().collect(Collectors.toMap(FileEntry::path, entry -> entry));
    listed.manifests().forEach(location -> early.listed(byPath.remove(location.path())));
    byPath.values().forEach(early::listed);
    return listed.manifests();
  }

  private static List<ManifestLocation> above(List<ManifestLocation> manifests, long bound) {
    return manifests.stream().filter(location -> location.version() > bound).toList();
  }

  private static List<ScannedManifest> scanAll(TableStorage storage, List<ManifestLocation> manifests, ManifestsReadEarly early) {
    ReferenceScanner scanner = new ReferenceScanner(storage.location(), DatasetRef.MAIN);
    List<ScannedManifest> scanned = new ArrayList<>();
    try (ManifestReadAhead reads = new ManifestReadAhead(storage, manifests, 8, ManifestReadAhead.BYTES_AHEAD, early)) {
      for (int i = 0; i < reads.size(); i++) {
        scanned.add(reads.scanNext(scanner));
      }
    }
    return scanned;
  }

  /** Counts the reads of each file, notes those read early (on their threads), and fails a file's first read when asked. */
  private static final class CountingStorage extends ForwardingTableStorage {
    final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
    final Set<String> readEarly = ConcurrentHashMap.newKeySet();
    final Set<String> failOnce = ConcurrentHashMap.newKeySet();

    CountingStorage(TableStorage delegate) {
      super(delegate);
    }

    int reads(ManifestLocation location) {
      AtomicInteger count = reads.get(location.path());
      return count == null ? 0 : count.get();
    }

    @Override
    public byte[] read(String path, long offset, int length) {
      reads.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
      if (Thread.currentThread().getName().equals("lance-manifest-early")) {
        readEarly.add(path);
      }
      if (failOnce.remove(path)) {
        throw new StorageException("read", path, new IOException("injected"));
      }
      return super.read(path, offset, length);
    }
  }
}
