package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.ledger.Ledger;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.ScalarIndexKind;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Daily incremental runs of the local engine on S3 (s3a to an S3 server on 127.0.0.1), between
 * commits the official SDK writes into the bucket: from the second day on each run decides from the
 * previous run's key snapshot (docs/ledger.md, section 12), and on an object store its listing goes
 * beside the mark instead of after it (section 12.5). Whichever of the two ends first, each run
 * removes exactly what the SDK's cleanup removes from a copy of the same objects, and every version
 * it keeps reads back.
 *
 * <p>The order is forced, not hoped for: a probe around the run's storage holds the mark's reads of
 * the new manifests (the answers exist only once they are read) until a listing of a managed
 * directory began, or until every one ended, and fails the run's day if the hold had to time out,
 * as it would were the listing still started after the mark.
 */
class S3KeySnapshotCleanupIT {
  private static final String BUCKET = "lance-key-snapshot";
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);
  /** Keys a listing page carries: every managed directory takes several pages, and key ranges. */
  private static final int SMALL_PAGE = 2;
  /** How long the probe holds the mark's manifest reads: far beyond a run on 127.0.0.1. */
  private static final long HOLD_SECONDS = 10;
  /** The directories the listing stage lists (the plan's listing of _versions/ is not among them). */
  private static final Set<String> LISTED = Set.of(
      ManagedLayout.DATA, ManagedLayout.TRANSACTIONS, ManagedLayout.DELETIONS, ManagedLayout.INDICES);

  private static final String TABLE = S3ProxyServer.s3aUri(BUCKET, "daily.lance");

  @TempDir Path work;
  private int copies;

  /** When the answers land, against the listing. */
  private enum Order {
    /**
     * The listing began before the answers and is still going when they land: small pages, and two
     * threads for four listing tasks, so that some tasks start before the answers (and spill every
     * name) and some after (and settle the names answered KEPT themselves).
     */
    LISTING_STILL_GOING,
    /** The whole listing ended before the answers landed: every task spilled every name. */
    LISTING_ENDED
  }

  @Test
  void dayAfterDayOnTheKeySnapshotsPathTheRunsRemoveWhatTheSdkRemoves() {
    LanceTableFixture table = LanceTableFixture.createAt(S3ProxyServer.lanceUri(BUCKET, "daily.lance"),
        FixtureOptions.defaults().withStorageOptions(S3.server().lanceStorageOptions()));
    List<Consumer<LanceTableFixture>> days = List.of(
        t -> { t.append(20); t.append(20); t.append(20); },
        t -> { t.append(10); t.append(10); },
        t -> t.deleteWhere("id % 4 = 0"),
        t -> t.createScalarIndex("id", ScalarIndexKind.BTREE),
        t -> { t.append(10); t.tag("kept", t.latestVersion() - 1); },
        t -> t.compact(),
        t -> { t.append(5); t.deleteTag("kept"); t.append(5); });
    List<Integer> fromSnapshot = new ArrayList<>();
    for (int day = 1; day <= days.size(); day++) {
      days.get(day - 1).accept(table);
      Order order = day % 2 == 0 ? Order.LISTING_STILL_GOING : Order.LISTING_ENDED;
      if (cleanAndCompare(table, 1 + day % 3, order, "day " + day)) {
        fromSnapshot.add(day);
      }
    }
    assertThat(fromSnapshot).as("the days decided from the key snapshot").containsExactly(2, 3, 4, 5, 6, 7);
  }

  /**
   * Our incremental run on the bucket, the SDK's cleanup with the same policy on a copy of its
   * objects made just before: the same files left, every kept version reading back. Returns
   * whether the run decided from the key snapshot (it read the snapshot and none of the ledger's
   * segments).
   */
  private boolean cleanAndCompare(LanceTableFixture table, int keep, Order order, String when) {
    long latest = table.latestVersion();
    Instant cutoff = Instant.now().plusSeconds(60);
    Path sdkCopy = work.resolve("sdk-" + ++copies);
    TableCopies.download(TABLE, S3.storageConf().toConfiguration(), sdkCopy);

    Probe probe = new Probe(order);
    // Runs that list (listing => 'always'): the order under test is a listing run's. A run that may
    // examine names instead of listing (docs/ledger.md, section 11; S3ListingSkipIT) waits for the
    // mark's word before it lists.
    CleanupAction ours = new LocalCleanupAction(TableLocation.of(TABLE), probe.factory(), Clock.systemUTC())
        .markMode(MarkMode.INCREMENTAL).alwaysList(true);
    if (order == Order.LISTING_STILL_GOING) {
      ((LocalCleanupAction) ours).parallelism(2);
    }
    ours.beforeVersion(latest - keep + 1).beforeTimestamp(cutoff).errorIfTaggedOldVersions(false);
    CleanupResult result = ours.execute();
    assertThat(probe.heldTooLong).as("%s: the mark's manifest reads waited for the listing (%s) past %s s",
        when, order, HOLD_SECONDS).isFalse();

    OraclePolicy sdkPolicy = OraclePolicy.builder().beforeVersion(latest - keep + 1).beforeTimestamp(cutoff)
        .errorIfTaggedOldVersions(false).build();
    assertThat(LanceOracle.cleanup(sdkCopy, sdkPolicy)).as("%s: the SDK cleaned the copy", when)
        .isInstanceOf(OracleOutcome.Removed.class);
    List<String> oursLeft = TableCopies.listFiles(TABLE, S3.storageConf().toConfiguration())
        .keySet().stream().filter(path -> !TableLease.isLeaseFile(path)).toList();
    assertThat(oursLeft).as("%s: files left by ours (%s) and by the SDK", when, result.counters())
        .isEqualTo(lanceFiles(sdkCopy));

    Path oursAfter = work.resolve("ours-" + copies);
    TableCopies.download(TABLE, S3.storageConf().toConfiguration(), oursAfter);
    KeptManifests.assertEveryManifestReadsBack(oursAfter);
    TableTwins.deleteRecursively(sdkCopy);
    TableTwins.deleteRecursively(oursAfter);
    return probe.keySnapshotRead.get() && !probe.segmentRead.get();
  }

  private static List<String> lanceFiles(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !TableLease.isLeaseFile(p)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The run's storage on the bucket in small pages, holding the reads of manifests (on this path
   * only the mark's new ones are read, and the answers wait for them) until the listing began or
   * ended; and what the run read of the ledger.
   */
  private static final class Probe {
    private final Order order;
    private final CountDownLatch listingBegan = new CountDownLatch(1);
    private final CountDownLatch listingEnded = new CountDownLatch(LISTED.size());
    private volatile boolean heldTooLong;
    private final AtomicBoolean keySnapshotRead = new AtomicBoolean();
    private final AtomicBoolean segmentRead = new AtomicBoolean();

    Probe(Order order) {
      this.order = order;
    }

    TableStorageFactory factory() {
      Map<String, String> settings = new HashMap<>(S3.hadoopSettings());
      settings.put("fs.s3a.paging.maximum", Integer.toString(SMALL_PAGE));
      TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.of(settings));
      return location -> new ForwardingTableStorage(plain.open(location)) {
        @Override
        public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
          if (!LISTED.contains(dir)) {
            return super.listFilesDeferringAttributes(dir, recursive);
          }
          listingBegan.countDown();
          return new CountingEnd(super.listFilesDeferringAttributes(dir, recursive), listingEnded);
        }

        @Override
        public byte[] read(String path, long offset, int length) {
          String name = path.substring(path.lastIndexOf('/') + 1);
          if (path.startsWith(ManagedLayout.VERSIONS + "/") && name.endsWith(".manifest")) {
            hold();
          }
          if (path.startsWith(Ledger.DIR + "/") && name.startsWith("keys.")) {
            keySnapshotRead.set(true);
          }
          if (path.startsWith(Ledger.DIR + "/") && name.startsWith("seg-")) {
            segmentRead.set(true);
          }
          return super.read(path, offset, length);
        }
      };
    }

    private void hold() {
      CountDownLatch until = order == Order.LISTING_STILL_GOING ? listingBegan : listingEnded;
      try {
        if (!until.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
          heldTooLong = true;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A listing that counts {@code ended} down once it has no more files. */
  private static final class CountingEnd implements Iterator<FileEntry> {
    private final Iterator<FileEntry> files;
    private final CountDownLatch ended;
    private boolean counted;

    CountingEnd(Iterator<FileEntry> files, CountDownLatch ended) {
      this.files = files;
      this.ended = ended;
    }

    @Override
    public boolean hasNext() {
      boolean more = files.hasNext();
      if (!more && !counted) {
        counted = true;
        ended.countDown();
      }
      return more;
    }

    @Override
    public FileEntry next() {
      return files.next();
    }
  }
}
