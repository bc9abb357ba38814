package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.format.ManifestNaming;
import dev.lancemaintenance.ledger.Ledger;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daily run's new manifests (above the key snapshot's end) read while the plan still lists
 * {@code _versions/} ({@code ManifestsReadEarly}), on S3 (s3a to an S3 server on 127.0.0.1) with
 * tables the official SDK writes: the reads go out before the plan's listing ends, the mark takes
 * them instead of reading again, and a manifest the plan's listing then shows with another
 * identity is read again from the listed file. Each run removes exactly what the SDK's cleanup
 * removes from a copy of the same objects.
 */
class S3NewManifestsReadEarlyIT {
  private static final String BUCKET = "lance-manifests-early";
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);
  /** Keys a listing page carries: {@code _versions/} takes several pages. */
  private static final int SMALL_PAGE = 2;
  /** How long the plan's listing waits at its end for the early reads: far beyond a run on 127.0.0.1. */
  private static final long HOLD_SECONDS = 10;
  /** The versions committed after the first run: the second run's new manifests. */
  private static final int NEW_VERSIONS = 3;

  @TempDir Path work;
  private int copies;

  @Test
  void theNewManifestsAreRequestedBeforeThePlansListingEndsAndNotReadAgain() {
    Probe probe = cleanedOnTheSecondDay("early.lance", false);

    assertEveryNewManifestReadOnceBefore(probe, "the plan's listing ended");
  }

  /**
   * Which manifests are new is foretold from the ledger directory's listing (the newest segment's
   * end), so their reads do not wait for the key snapshot's read: here the snapshot's read is held
   * until they were read, and they were.
   */
  @Test
  void theNewManifestsAreRequestedBeforeTheKeySnapshotIsRead() {
    Probe probe = cleanedOnTheSecondDay("before-snapshot.lance", false, true);

    assertEveryNewManifestReadOnceBefore(probe, "the key snapshot was read");
  }

  /** Each new manifest was read once, and before {@code event} in the probe's events. */
  private static void assertEveryNewManifestReadOnceBefore(Probe probe, String event) {
    List<String> events = List.copyOf(probe.events);
    int at = events.indexOf(event);
    assertThat(at).as("events %s", events).isPositive();
    for (String manifest : probe.newManifests) {
      assertThat(events.indexOf("read " + manifest)).as("the read of %s in %s", manifest, events).isBetween(0, at - 1);
      assertThat(probe.reads.get(manifest).get()).as("reads of %s", manifest).isEqualTo(1);
    }
  }

  @Test
  void aManifestRewrittenBetweenItsEarlyReadAndThePlansListingIsReadFromTheListedFile() {
    Probe probe = cleanedOnTheSecondDay("rewritten.lance", true);

    assertThat(probe.rewritten).as("the plan listed again, after the rewrite").isTrue();
    String rewritten = probe.newManifests.get(probe.newManifests.size() - 1);
    assertThat(probe.reads.get(rewritten).get()).as("reads of the rewritten %s: early, then as listed again", rewritten)
        .isEqualTo(2);
    for (String manifest : probe.newManifests.subList(0, probe.newManifests.size() - 1)) {
      assertThat(probe.reads.get(manifest).get()).as("reads of %s, listed again as it was read", manifest).isEqualTo(1);
    }
  }

  /**
   * The second day's run on a new table, through a {@link Probe}, against the SDK's cleanup: it
   * held the plan's listing no longer than {@link #HOLD_SECONDS} and decided from the key snapshot
   * (it read the snapshot and none of the ledger's segments).
   */
  private Probe cleanedOnTheSecondDay(String name, boolean rewrite) {
    return cleanedOnTheSecondDay(name, rewrite, false);
  }

  /** As {@link #cleanedOnTheSecondDay(String, boolean)}; with {@code holdKeySnapshot}, the snapshot's read waits for the new manifests' reads too. */
  private Probe cleanedOnTheSecondDay(String name, boolean rewrite, boolean holdKeySnapshot) {
    LanceTableFixture table = tableWithANewDay(name);
    Probe probe = new Probe(newManifests(name, table), rewrite, holdKeySnapshot);
    cleanAndCompare(table, name, probe);
    assertThat(probe.heldTooLong).as("the plan's listing waited past %s s for the new manifests' reads", HOLD_SECONDS)
        .isFalse();
    assertThat(probe.keySnapshotRead.get() && !probe.segmentRead.get()).as("decided from the key snapshot").isTrue();
    return probe;
  }

  /** A table cleaned once (which leaves the key snapshot), then {@link #NEW_VERSIONS} commits more. */
  private LanceTableFixture tableWithANewDay(String name) {
    LanceTableFixture table = LanceTableFixture.createAt(S3ProxyServer.lanceUri(BUCKET, name),
        FixtureOptions.defaults().withStorageOptions(S3.server().lanceStorageOptions()));
    table.append(20);
    table.append(20);
    table.append(20);
    table.deleteWhere("id % 4 = 0");
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.of(S3.hadoopSettings()));
    new LocalCleanupAction(TableLocation.of(S3ProxyServer.s3aUri(BUCKET, name)), plain, Clock.systemUTC())
        .markMode(MarkMode.INCREMENTAL)
        .beforeVersion(table.latestVersion() - 1).beforeTimestamp(Instant.now().plusSeconds(60))
        .errorIfTaggedOldVersions(false)
        .execute();
    for (int commit = 0; commit < NEW_VERSIONS; commit++) {
      table.append(5);
    }
    return table;
  }

  /** The manifests' names of the last {@link #NEW_VERSIONS} versions, oldest first, as the table names them. */
  private static List<String> newManifests(String name, LanceTableFixture table) {
    long oldestNew = table.latestVersion() - NEW_VERSIONS + 1;
    return TableCopies.listFiles(S3ProxyServer.s3aUri(BUCKET, name), S3.storageConf().toConfiguration()).keySet().stream()
        .filter(path -> path.startsWith(ManagedLayout.VERSIONS + "/") && path.endsWith(".manifest"))
        .map(path -> path.substring(path.lastIndexOf('/') + 1))
        .filter(file -> versionOf(file) >= oldestNew)
        .sorted(Comparator.comparingLong(S3NewManifestsReadEarlyIT::versionOf))
        .toList();
  }

  private static long versionOf(String manifest) {
    return ManifestNaming.of(manifest).parseVersion(manifest).orElseThrow();
  }

  private void cleanAndCompare(LanceTableFixture table, String name, Probe probe) {
    String uri = S3ProxyServer.s3aUri(BUCKET, name);
    long latest = table.latestVersion();
    Instant cutoff = Instant.now().plusSeconds(60);
    Path sdkCopy = work.resolve("sdk-" + ++copies);
    TableCopies.download(uri, S3.storageConf().toConfiguration(), sdkCopy);

    CleanupResult result = new LocalCleanupAction(TableLocation.of(uri), probe.factory(), Clock.systemUTC())
        .markMode(MarkMode.INCREMENTAL)
        .beforeVersion(latest - 1).beforeTimestamp(cutoff).errorIfTaggedOldVersions(false)
        .execute();

    OraclePolicy sdkPolicy = OraclePolicy.builder().beforeVersion(latest - 1).beforeTimestamp(cutoff)
        .errorIfTaggedOldVersions(false).build();
    assertThat(LanceOracle.cleanup(sdkCopy, sdkPolicy)).as("the SDK cleaned the copy").isInstanceOf(OracleOutcome.Removed.class);
    Configuration conf = S3.storageConf().toConfiguration();
    assertThat(TableCopies.listFiles(uri, conf).keySet()).as("files left by ours (%s) and by the SDK", result.counters())
        .isEqualTo(TableCopies.listFiles(sdkCopy.toUri().toString(), conf).keySet());
    Path oursAfter = work.resolve("ours-" + copies);
    TableCopies.download(uri, conf, oursAfter);
    KeptManifests.assertEveryManifestReadsBack(oursAfter);
    TableTwins.deleteRecursively(sdkCopy);
    TableTwins.deleteRecursively(oursAfter);
  }

  /**
   * The run's storage on the bucket in small pages: the plan's first listing of {@code _versions/}
   * holds its end until every new manifest was read (so the reads had to start before it ended);
   * with {@code rewrite}, the newest manifest is then written again (the same bytes, a later
   * modification time) and the hint's first read claims a version no listing reaches, so the plan
   * lists again and sees the rewritten file; with {@code holdKeySnapshot}, the key snapshot's read
   * returns only once every new manifest was read (or {@link #HOLD_SECONDS} passed).
   */
  private static final class Probe {
    private final List<String> newManifests;
    private final boolean rewrite;
    private final boolean holdKeySnapshot;
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
    private final CountDownLatch newManifestsRead;
    private final AtomicBoolean firstListing = new AtomicBoolean(true);
    private final AtomicBoolean firstHint = new AtomicBoolean(true);
    private final AtomicBoolean keySnapshotRead = new AtomicBoolean();
    private final AtomicBoolean segmentRead = new AtomicBoolean();
    private volatile boolean heldTooLong;
    private volatile boolean rewritten;

    Probe(List<String> newManifests, boolean rewrite, boolean holdKeySnapshot) {
      this.newManifests = List.copyOf(newManifests);
      this.rewrite = rewrite;
      this.holdKeySnapshot = holdKeySnapshot;
      this.newManifestsRead = new CountDownLatch(newManifests.size());
      newManifests.forEach(manifest -> reads.put(manifest, new AtomicInteger()));
    }

    TableStorageFactory factory() {
      Map<String, String> settings = new HashMap<>(S3.hadoopSettings());
      settings.put("fs.s3a.paging.maximum", Integer.toString(SMALL_PAGE));
      TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.of(settings));
      return location -> probed(plain.open(location));
    }

    private TableStorage probed(TableStorage s3) {
      return new ForwardingTableStorage(s3) {
        @Override
        public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
          Iterator<FileEntry> listed = super.listFilesDeferringAttributes(dir, recursive);
          if (!dir.equals(ManagedLayout.VERSIONS) || !firstListing.getAndSet(false)) {
            return listed;
          }
          return new Iterator<>() {
            @Override
            public boolean hasNext() {
              if (listed.hasNext()) {
                return true;
              }
              if (events.contains("the plan's listing ended")) {
                return false;
              }
              holdForTheNewManifests();
              if (rewrite) {
                rewriteNewest(s3);
              }
              events.add("the plan's listing ended");
              return false;
            }

            @Override
            public FileEntry next() {
              return listed.next();
            }
          };
        }

        @Override
        public byte[] readFully(String path) {
          if (rewrite && path.equals(ManagedLayout.VERSIONS + "/latest_version_hint.json") && firstHint.getAndSet(false)) {
            return "{\"version\": 1000000}".getBytes(StandardCharsets.UTF_8);
          }
          return super.readFully(path);
        }

        @Override
        public byte[] read(String path, long offset, int length) {
          String file = path.substring(path.lastIndexOf('/') + 1);
          if (path.startsWith(Ledger.DIR + "/") && file.startsWith("keys.")) {
            keySnapshotRead.set(true);
            if (holdKeySnapshot) {
              holdForTheNewManifests();
              byte[] snapshot = super.read(path, offset, length);
              events.add("the key snapshot was read");
              return snapshot;
            }
          }
          if (path.startsWith(Ledger.DIR + "/") && file.startsWith("seg-")) {
            segmentRead.set(true);
          }
          byte[] bytes = super.read(path, offset, length);
          AtomicInteger count = path.startsWith(ManagedLayout.VERSIONS + "/") ? reads.get(file) : null;
          if (count != null) {
            count.incrementAndGet();
            events.add("read " + file);
            newManifestsRead.countDown();
          }
          return bytes;
        }
      };
    }

    private void holdForTheNewManifests() {
      try {
        if (!newManifestsRead.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
          heldTooLong = true;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** The newest manifest written again, its bytes the same, its modification time later; past the probe. */
    private void rewriteNewest(TableStorage storage) {
      String path = ManagedLayout.VERSIONS + "/" + newManifests.get(newManifests.size() - 1);
      byte[] bytes = storage.readFully(path);
      try {
        Thread.sleep(1_100); // a later modification time, whatever the store's granularity
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      storage.write(path, bytes);
      rewritten = true;
    }
  }
}
