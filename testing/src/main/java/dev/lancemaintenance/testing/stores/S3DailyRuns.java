package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.engine.BaseCleanupAction;
import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * Daily incremental cleanups of tables in an S3 test bucket (s3a to {@link S3ProxyServer} on
 * 127.0.0.1) by one engine, each beside the official SDK's cleanup of a copy of the same objects
 * with the same policy: the same files are left, every kept version reads back, and the run's
 * storage ({@link Probe}) says whether it listed {@code data/}, {@code _transactions/}, {@code
 * _deletions/} or {@code _indices/} or examined names instead (docs/ledger.md, section 11). Every
 * engine that can clean in process runs the same days: the local engine ({@code S3ListingSkipIT}),
 * Spark's driver and Flink's client.
 *
 * <p>The runs are given no {@code PUT} margin ({@code putMargin}): the versions here are seconds
 * old, and the margin only narrows when a run may skip. The store's times are its own (s3proxy
 * stamps every object as it is written), as the path requires; nothing back-dates.
 */
public final class S3DailyRuns {
  /** The directories a listing walks (the plan's listing of {@code _versions/} is not among them). */
  private static final Set<String> LISTED = Set.of(
      ManagedLayout.DATA, ManagedLayout.TRANSACTIONS, ManagedLayout.DELETIONS, ManagedLayout.INDICES);

  private final S3Bucket s3;
  private final Path work;
  /** The engine's cleanup of a table (its s3a URI) through a storage factory, in incremental mode. */
  private final BiFunction<String, TableStorageFactory, BaseCleanupAction<?>> engine;
  private int copies;

  /**
   * @param work a directory for the SDK's copies and the read-back
   * @param engine the engine's cleanup action of a table, given its s3a URI and the storage to run
   *     through, in incremental mode; the days set its options, policy and margin
   */
  public S3DailyRuns(S3Bucket s3, Path work, BiFunction<String, TableStorageFactory, BaseCleanupAction<?>> engine) {
    this.s3 = s3;
    this.work = work;
    this.engine = engine;
  }

  /**
   * One day's run of ours on the bucket (beside the SDK's cleanup of a copy made just before, with
   * the same policy): the same files left, every kept version reading back. Returns "listed" when the
   * run listed any managed directory and "examined" when it listed none and examined names instead.
   */
  public String day(LanceTableFixture table, String name, long beforeVersion, boolean deleteUnverified,
      Map<String, String> options) {
    return day(table, name, beforeVersion, deleteUnverified, options, null, List.of(), Duration.ZERO);
  }

  /**
   * As {@link #day(LanceTableFixture, String, long, boolean, Map)}, with {@code beforeThePlanLists}
   * run once the run read its record of the last listing and before its plan lists the versions
   * (null: nothing), and {@code alsoOnTheCopy} the SDK cleanups that run does, applied to the copy
   * before the day's own, and {@code horizonAhead} added to the horizon the store gives the run.
   * "listed and compared" is a verify run that listed and read the names a run without a listing
   * would examine (and found both decide the same deletes).
   */
  public String day(LanceTableFixture table, String name, long beforeVersion, boolean deleteUnverified,
      Map<String, String> options, Runnable beforeThePlanLists, List<OraclePolicy> alsoOnTheCopy, Duration horizonAhead) {
    String bucket = s3.name();
    String when = name + " before version " + beforeVersion;
    String uri = S3ProxyServer.s3aUri(bucket, name);
    // The store stamps whole seconds: the versions committed so far lie before the next listing's horizon.
    sleep(1_100);
    Instant cutoff = Instant.now().plusSeconds(60);
    Path sdkCopy = work.resolve("sdk-" + ++copies);
    TableCopies.download(uri, s3.storageConf().toConfiguration(), sdkCopy);

    Probe probe = new Probe(s3, beforeThePlanLists, horizonAhead);
    BaseCleanupAction<?> ours = cleanup(uri, probe);
    ours.options(options);
    ours.beforeVersion(beforeVersion).beforeTimestamp(cutoff).errorIfTaggedOldVersions(false);
    OraclePolicy.Builder sdkPolicy = OraclePolicy.builder().beforeVersion(beforeVersion).beforeTimestamp(cutoff)
        .errorIfTaggedOldVersions(false);
    if (deleteUnverified) {
      ours.deleteUnverified(true).allowShortRetention(true);
      sdkPolicy.deleteUnverified(true);
    }
    CleanupResult result = ours.execute();
    assertThat(probe.beforeThePlanListsRan()).as("%s: the step before the plan's listing ran", when)
        .isEqualTo(beforeThePlanLists != null);

    for (OraclePolicy earlier : alsoOnTheCopy) {
      assertThat(LanceOracle.cleanup(sdkCopy, earlier)).as("%s: the SDK's cleanup during the run, on the copy", when)
          .isInstanceOf(OracleOutcome.Removed.class);
    }
    assertThat(LanceOracle.cleanup(sdkCopy, sdkPolicy.build())).as("%s: the SDK cleaned the copy", when)
        .isInstanceOf(OracleOutcome.Removed.class);
    List<String> oursLeft = TableCopies.listFiles(uri, s3.storageConf().toConfiguration()).keySet().stream()
        .filter(path -> !TableLease.isLeaseFile(path) && !path.startsWith("_maintenance/")).toList();
    assertThat(oursLeft).as("%s: files left by ours (%s) and by the SDK", when, result.counters())
        .isEqualTo(lanceFiles(sdkCopy));
    Path oursAfter = work.resolve("ours-" + copies);
    TableCopies.download(uri, s3.storageConf().toConfiguration(), oursAfter);
    KeptManifests.assertEveryManifestReadsBack(oursAfter);
    TableTwins.deleteRecursively(sdkCopy);
    TableTwins.deleteRecursively(oursAfter);
    if (probe.managedListings() == 0) {
      assertThat(probe.prefixesExamined()).as("%s: a run that lists nothing examines names", when).isPositive();
      return "examined";
    }
    return options.containsKey("verify") && probe.prefixesExamined() > 0 ? "listed and compared" : "listed";
  }

  /** The engine's cleanup of the table at {@code uri} through {@code probe}'s storage, with no {@code PUT} margin. */
  public BaseCleanupAction<?> cleanup(String uri, Probe probe) {
    BaseCleanupAction<?> action = engine.apply(uri, probe.factory());
    action.putMargin(Duration.ZERO);
    return action;
  }

  /** The files of a table on local disk, as the SDK left them, without our lease and ledger. */
  private static List<String> lanceFiles(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !TableLease.isLeaseFile(p) && !p.startsWith("_maintenance/")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits, so that the store's whole-second times of what came before lie in the past. */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A run's storage on the bucket, counting its listings of managed directories and of key
   * prefixes, and running a step (when given) once the record of the last listing was read and
   * before the first listing of {@code _versions/} goes on.
   */
  public static final class Probe {
    private final S3Bucket s3;
    private final AtomicInteger managedListings = new AtomicInteger();
    private final AtomicInteger prefixes = new AtomicInteger();
    private final Runnable beforeThePlanLists;
    private final Duration horizonAhead;
    private final CountDownLatch recordRead = new CountDownLatch(1);
    private final AtomicBoolean ran = new AtomicBoolean();

    /** A probe that only counts. */
    public Probe(S3Bucket s3) {
      this(s3, null, Duration.ZERO);
    }

    Probe(S3Bucket s3, Runnable beforeThePlanLists, Duration horizonAhead) {
      this.s3 = s3;
      this.beforeThePlanLists = beforeThePlanLists;
      this.horizonAhead = horizonAhead;
    }

    boolean beforeThePlanListsRan() {
      return ran.get();
    }

    /** Listings of {@code data/}, {@code _transactions/}, {@code _deletions/} and {@code _indices/}. */
    public int managedListings() {
      return managedListings.get();
    }

    /** Key prefixes listed instead, one per examined name. */
    public int prefixesExamined() {
      return prefixes.get();
    }

    /** The storage that counts. */
    public TableStorageFactory factory() {
      TableStorageFactory plain = HadoopTableStorage.factory(s3.storageConf());
      return location -> new ForwardingTableStorage(plain.open(location)) {
        @Override
        public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
          count(dir);
          return super.listFiles(dir, recursive);
        }

        @Override
        public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
          count(dir);
          return super.listFilesDeferringAttributes(dir, recursive);
        }

        @Override
        public byte[] read(String path, long offset, int length) {
          byte[] read = super.read(path, offset, length);
          if (path.contains("/unlisted.")) {
            recordRead.countDown();
          }
          return read;
        }

        @Override
        public OptionalLong listingHorizonMillis() {
          OptionalLong taken = super.listingHorizonMillis();
          return taken.isPresent() ? OptionalLong.of(taken.getAsLong() + horizonAhead.toMillis()) : taken;
        }

        @Override
        public List<FileEntry> filesWithPrefix(String prefix) {
          prefixes.incrementAndGet();
          return super.filesWithPrefix(prefix);
        }
      };
    }

    private void count(String dir) {
      if (LISTED.contains(dir)) {
        managedListings.incrementAndGet();
      }
      if (dir.equals(ManagedLayout.VERSIONS) && beforeThePlanLists != null && !ran.get()) {
        try {
          assertThat(recordRead.await(30, TimeUnit.SECONDS))
              .as("the record of the last listing read before the plan lists the versions").isTrue();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        if (ran.compareAndSet(false, true)) {
          beforeThePlanLists.run();
        }
      }
    }
  }
}
