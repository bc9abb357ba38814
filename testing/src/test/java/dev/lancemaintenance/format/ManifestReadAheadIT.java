package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a run's manifests ahead ({@link ManifestReadAhead}) is a shortcut past reading them one
 * after the other: it must scan every manifest exactly as {@link ManifestReader#scan} does, in
 * order, read each once, keep within its bounds, and fail at the failing manifest's turn.
 */
class ManifestReadAheadIT {
  @TempDir static Path workDir;
  private static LanceTableFixture table;

  @BeforeAll
  static void writeHistory() {
    table = ConformanceScenarios.randomMix(workDir, 7).table();
    for (int i = 0; i < 12; i++) {
      table.append(3);
    }
    table.compact();
  }

  private static TableStorage open() {
    return new HadoopTableStorage(TableLocation.of(table.root().toString()), StorageConf.defaults());
  }

  @Test
  void scansEveryManifestAsReadingThemOneByOneDoes() {
    try (TableStorage storage = open()) {
      List<ManifestLocation> manifests = VersionListing.list(storage, DatasetRef.MAIN);
      assertThat(manifests).hasSizeGreaterThan(20);
      List<ScannedManifest> oneByOne = new ArrayList<>();
      ReferenceScanner scanner = new ReferenceScanner(storage.location(), DatasetRef.MAIN);
      manifests.forEach(location -> oneByOne.add(ManifestReader.scan(storage, location, scanner)));
      for (int inFlight : new int[] {1, 3, 64}) {
        for (long bytesAhead : new long[] {1, ManifestReadAhead.BYTES_AHEAD}) {
          ReferenceScanner own = new ReferenceScanner(storage.location(), DatasetRef.MAIN);
          try (ManifestReadAhead reads = new ManifestReadAhead(storage, manifests, inFlight, bytesAhead)) {
            for (ScannedManifest expected : oneByOne) {
              ScannedManifest scanned = reads.scanNext(own);
              String what = expected.version() + " with " + inFlight + " in flight, " + bytesAhead + " bytes ahead";
              assertThat(scanned.version()).as(what).isEqualTo(expected.version());
              assertThat(scanned.timestampNanos()).as(what).isEqualTo(expected.timestampNanos());
              assertThat(scanned.references()).as(what).isEqualTo(expected.references());
            }
            assertThatThrownBy(() -> reads.scanNext(own)).isInstanceOf(IllegalStateException.class);
          }
        }
      }
    }
  }

  @Test
  void readsOverlapWithinTheirBoundsAndEachManifestIsReadOnce() {
    try (SlowStorage storage = new SlowStorage(open())) {
      List<ManifestLocation> manifests = VersionListing.list(storage, DatasetRef.MAIN);
      scanAll(storage, manifests, 8, ManifestReadAhead.BYTES_AHEAD);
      assertThat(storage.mostInFlight.get()).as("reads in flight at once").isBetween(2, 8);
      assertThat(storage.reads).as("reads per manifest").hasSize(manifests.size()).allSatisfy((path, reads) -> assertThat(reads.get()).isEqualTo(1));

      SlowStorage bounded = new SlowStorage(storage.delegate());
      long twoLargest = 2 * manifests.stream().mapToLong(ManifestLocation::size).max().orElseThrow();
      scanAll(bounded, VersionListing.list(bounded, DatasetRef.MAIN), 8, twoLargest);
      assertThat(bounded.mostBytesInFlight.get()).as("bytes in flight").isBetween(1L, twoLargest);

      SlowStorage halves = new SlowStorage(storage.delegate());
      int suggested = halves.suggestedConcurrency();
      assertThat(suggested).isGreaterThanOrEqualTo(4);
      scanAll(halves, ManifestReadAhead.share(halves, manifests, 2));
      assertThat(halves.mostInFlight.get()).as("reads in flight with half the store's share").isBetween(2, suggested / 2);

      SlowStorage manyRuns = new SlowStorage(storage.delegate());
      scanAll(manyRuns, ManifestReadAhead.share(manyRuns, manifests, suggested + 1));
      assertThat(manyRuns.mostInFlight.get()).as("one read at a time when the runs outnumber the store's share").isEqualTo(1);

      SlowStorage oneByte = new SlowStorage(storage.delegate());
      scanAll(oneByte, VersionListing.list(oneByte, DatasetRef.MAIN), 8, 1);
      assertThat(oneByte.mostInFlight.get()).as("one read at a time when no second fits").isEqualTo(1);
    }
  }

  @Test
  void aManifestThatCannotBeReadFailsAtItsTurnAfterTheOnesBefore() throws Exception {
    Path copy = workDir.resolve("missing-one");
    dev.lancemaintenance.testing.TableTwins.copy(table.root(), copy);
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(copy.toString()), StorageConf.defaults())) {
      List<ManifestLocation> manifests = VersionListing.list(storage, DatasetRef.MAIN);
      int gone = manifests.size() / 2;
      Files.delete(copy.resolve(manifests.get(gone).path()));
      ReferenceScanner scanner = new ReferenceScanner(storage.location(), DatasetRef.MAIN);
      try (ManifestReadAhead reads = new ManifestReadAhead(storage, manifests, 64, ManifestReadAhead.BYTES_AHEAD)) {
        for (int i = 0; i < gone; i++) {
          assertThat(reads.scanNext(scanner).version()).isEqualTo(manifests.get(i).version());
        }
        assertThatThrownBy(() -> reads.scanNext(scanner)).isInstanceOf(StorageException.class)
            .hasMessageContaining(manifests.get(gone).path());
      }
    }
  }

  @Test
  void anInterruptedTaskStopsAtTheNextManifest() {
    try (TableStorage storage = open()) {
      List<ManifestLocation> manifests = VersionListing.list(storage, DatasetRef.MAIN);
      ReferenceScanner scanner = new ReferenceScanner(storage.location(), DatasetRef.MAIN);
      try (ManifestReadAhead reads = new ManifestReadAhead(storage, manifests, 8, ManifestReadAhead.BYTES_AHEAD)) {
        reads.scanNext(scanner);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> reads.scanNext(scanner)).isInstanceOf(CancellationException.class);
      } finally {
        Thread.interrupted();
      }
    }
  }

  @Test
  void theLedgersSummariesAreTheSameReadAheadOrOneByOne() {
    try (TableStorage storage = open(); TableStorage oneByOne = new OneRequestAtATime(open())) {
      List<ManifestLocation> manifests = VersionListing.list(storage, DatasetRef.MAIN);
      for (ManifestRun cut : ManifestRun.cut(manifests, 7)) {
        // As the one run of a cut: the run reads ahead all the store suggests.
        ManifestRun run = new ManifestRun(cut.base(), cut.manifests(), 1);
        RunSummary readAhead = new VersionSummaries(storage, DatasetRef.MAIN).summarise(run);
        assertThat(readAhead).isEqualTo(new VersionSummaries(oneByOne, DatasetRef.MAIN).summarise(run));
        assertThat(readAhead.versions()).hasSize(run.manifests().size());
      }
    }
  }

  private static void scanAll(TableStorage storage, List<ManifestLocation> manifests, int inFlight, long bytesAhead) {
    scanAll(storage, new ManifestReadAhead(storage, manifests, inFlight, bytesAhead));
  }

  private static void scanAll(TableStorage storage, ManifestReadAhead readAhead) {
    ReferenceScanner scanner = new ReferenceScanner(storage.location(), DatasetRef.MAIN);
    try (ManifestReadAhead reads = readAhead) {
      for (int i = 0; i < reads.size(); i++) {
        reads.scanNext(scanner);
      }
    }
  }

  /** A store whose reads wait a few ms, as on an object store, and which counts them. */
  private static final class SlowStorage extends ForwardingTableStorage {
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger mostInFlight = new AtomicInteger();
    final AtomicLong bytesInFlight = new AtomicLong();
    final AtomicLong mostBytesInFlight = new AtomicLong();
    final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

    SlowStorage(TableStorage delegate) {
      super(delegate);
    }

    @Override
    public TableStorage delegate() {
      return super.delegate();
    }

    @Override
    public byte[] read(String path, long offset, int length) {
      reads.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
      mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      mostBytesInFlight.accumulateAndGet(bytesInFlight.addAndGet(length), Math::max);
      try {
        Thread.sleep(5);
        return super.read(path, offset, length);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } finally {
        inFlight.decrementAndGet();
        bytesInFlight.addAndGet(-length);
      }
    }
  }

  /** A store that suggests one request at a time: its manifests are read one by one, at their turn. */
  private static final class OneRequestAtATime extends ForwardingTableStorage {
    OneRequestAtATime(TableStorage delegate) {
      super(delegate);
    }

    @Override
    public int suggestedConcurrency() {
      return 1;
    }
  }
}
