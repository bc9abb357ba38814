package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep of one batch on a real table: batches never exceed the store's page, a delete the
 * store refuses for a while is retried after a backoff, one it keeps refusing is counted failed and
 * its file stays, and a file already gone counts as deleted.
 */
class SweepBatchTest {
  @TempDir java.nio.file.Path dir;

  private LanceTableFixture table;
  private final RecordingPacer pacer = new RecordingPacer();

  @BeforeEach
  void threeAppends() {
    table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(10);
    table.append(10);
    table.append(10);
  }

  @Test
  void deletesInBatchesOfTheStoresPageAndCountsEachKind() {
    List<CandidateFile> files = candidates("_transactions/", FileKind.TRANSACTION, RemovalReason.EXPIRED_VERSION);
    files.addAll(candidates("data/", FileKind.DATA, RemovalReason.UNVERIFIED_DELETE_UNVERIFIED).subList(0, 2));
    assertThat(files).hasSize(5);
    try (PagedStorage storage = new PagedStorage(open(), 2, Map.of())) {
      CleanupCounters counters = new SweepBatch(storage, pacer).sweep(files);

      assertThat(storage.requests).extracting(List::size).containsExactly(2, 2, 1);
      assertThat(pacer.acquired).containsExactly(2, 2, 1);
      assertThat(pacer.backoffs).isEmpty();
      assertThat(counters.transactionFilesRemoved()).isEqualTo(3);
      assertThat(counters.dataFilesRemoved()).isEqualTo(2);
      assertThat(counters.manifestFilesRemoved()).isZero();
      assertThat(counters.failedDeletes()).isZero();
      assertThat(counters.bytesRemoved()).isEqualTo(files.stream().mapToLong(CandidateFile::bytes).sum()).isPositive();
    }
    assertThat(table.listFiles()).doesNotContainAnyElementsOf(files.stream().map(CandidateFile::path).toList());
    assertThat(table.listFiles()).filteredOn(p -> p.startsWith("data/")).hasSize(1);
  }

  @Test
  void aFileAlreadyGoneCountsAsDeleted() throws Exception {
    CandidateFile manifest = candidates("_versions/", FileKind.MANIFEST, RemovalReason.EXPIRED_VERSION).get(0);
    Files.delete(table.resolve(manifest.path()));
    try (PagedStorage storage = new PagedStorage(open(), 1000, Map.of())) {
      CleanupCounters counters = new SweepBatch(storage, pacer).sweep(List.of(manifest));

      assertThat(counters.manifestFilesRemoved()).isEqualTo(1);
      assertThat(counters.oldVersions()).isEqualTo(1);
      assertThat(counters.failedDeletes()).isZero();
      assertThat(pacer.backoffs).as("nothing to retry").isEmpty();
    }
  }

  @Test
  void aDeleteRefusedForAWhileIsRetriedAloneAfterABackoff() {
    List<CandidateFile> files = candidates("_transactions/", FileKind.TRANSACTION, RemovalReason.EXPIRED_VERSION);
    String throttled = files.get(1).path();
    try (PagedStorage storage = new PagedStorage(open(), 1000, Map.of(throttled, SweepBatch.MAX_ATTEMPTS - 1))) {
      CleanupCounters counters = new SweepBatch(storage, pacer).sweep(files);

      assertThat(storage.requests).containsExactly(paths(files), List.of(throttled), List.of(throttled));
      assertThat(pacer.backoffs).containsExactly(1, 2);
      assertThat(pacer.acquired).containsExactly(3, 1, 1);
      assertThat(counters.transactionFilesRemoved()).isEqualTo(3);
      assertThat(counters.failedDeletes()).isZero();
    }
    assertThat(table.listFiles()).noneMatch(p -> p.startsWith("_transactions/"));
  }

  @Test
  void aDeleteRefusedEveryTimeIsCountedFailedAndItsFileStays() {
    List<CandidateFile> files = candidates("_transactions/", FileKind.TRANSACTION, RemovalReason.EXPIRED_VERSION);
    CandidateFile refused = files.get(0);
    try (PagedStorage storage = new PagedStorage(open(), 1000, Map.of(refused.path(), Integer.MAX_VALUE))) {
      CleanupCounters counters = new SweepBatch(storage, pacer).sweep(files);

      assertThat(storage.requests).hasSize(SweepBatch.MAX_ATTEMPTS);
      assertThat(counters.failedDeletes()).isEqualTo(1);
      assertThat(counters.transactionFilesRemoved()).isEqualTo(2);
      assertThat(counters.bytesRemoved()).isEqualTo(files.get(1).bytes() + files.get(2).bytes());
    }
    assertThat(table.listFiles()).filteredOn(p -> p.startsWith("_transactions/")).containsExactly(refused.path());
  }

  private List<CandidateFile> candidates(String prefix, FileKind kind, RemovalReason reason) {
    List<CandidateFile> files = new ArrayList<>();
    for (String path : table.listFiles()) {
      if (path.startsWith(prefix)) {
        files.add(new CandidateFile(path, kind, table.resolve(path).toFile().length(), reason));
      }
    }
    return files;
  }

  private static List<String> paths(List<CandidateFile> files) {
    return files.stream().map(CandidateFile::path).toList();
  }

  private TableStorage open() {
    return new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults());
  }

  /** The real store with a smaller page, refusing chosen paths a number of times, recording requests. */
  private static final class PagedStorage extends ForwardingTableStorage {
    private final int pageSize;
    private final Map<String, Integer> refusalsLeft;
    final List<List<String>> requests = new ArrayList<>();

    PagedStorage(TableStorage delegate, int pageSize, Map<String, Integer> refusals) {
      super(delegate);
      this.pageSize = pageSize;
      this.refusalsLeft = new HashMap<>(refusals);
    }

    @Override
    public int maxDeleteBatchSize() {
      return pageSize;
    }

    @Override
    public List<DeleteFailure> deleteBatch(List<String> paths) {
      assertThat(paths.size()).as("a delete request").isLessThanOrEqualTo(pageSize);
      requests.add(paths.stream().sorted().toList());
      List<DeleteFailure> failures = new ArrayList<>();
      List<String> attempted = new ArrayList<>();
      for (String path : paths) {
        int left = refusalsLeft.getOrDefault(path, 0);
        if (left > 0) {
          refusalsLeft.put(path, left - 1);
          failures.add(new DeleteFailure(path, "503 Slow Down"));
        } else {
          attempted.add(path);
        }
      }
      for (String path : attempted) {
        // The local store deletes one file per request; the page here is the sweep's to respect.
        failures.addAll(super.deleteBatch(List.of(path)));
      }
      return failures;
    }
  }

  private static final class RecordingPacer implements DeletePacer {
    final List<Integer> acquired = new CopyOnWriteArrayList<>();
    final List<Integer> backoffs = new CopyOnWriteArrayList<>();

    @Override
    public void acquire(int files) {
      acquired.add(files);
    }

    @Override
    public void backoff(int attempt) {
      backoffs.add(attempt);
    }
  }
}
