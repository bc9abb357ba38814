package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorage.DeleteFailure;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer commits while our cleanup runs: appends, predicate deletes, compactions and a tag moved
 * to the newest version, each round racing cleanups that expire every version they see as old.
 * Whatever the interleaving, every version, tag and row the SDK lists afterwards must read back in
 * full: the writer's new files are newer than the version the cleanup kept as latest, so Lance's
 * rule keeps them, and the cleanup never sees the writer's manifest as expired.
 *
 * <p>The rounds run in order on one table, so history accumulates as it would beside a real
 * writer; each round repeats the cleanup until the writer's commit is done, so the two overlap.
 */
class ConcurrentWritersIT {
  private static final int ROUNDS_PER_OPERATION = 4;
  private static final String MOVING_TAG = "newest";

  @TempDir static Path workDir;
  private static LanceTableFixture table;
  private static long expectedRows;

  @BeforeAll
  static void writeHistory() {
    table = LanceTableFixture.create(workDir.resolve("busy.lance"));
    for (int i = 0; i < 4; i++) {
      table.append(20);
    }
    table.tag(MOVING_TAG, table.latestVersion());
    expectedRows = table.countRows();
  }

  /** Writer operations, each run {@link #ROUNDS_PER_OPERATION} times, interleaved. */
  static Stream<Named<Consumer<LanceTableFixture>>> operations() {
    List<Named<Consumer<LanceTableFixture>>> kinds =
        List.of(
            Named.of("append", t -> t.append(20)),
            Named.of("predicate delete", t -> t.deleteWhere("id % 7 = " + (t.latestVersion() % 7))),
            Named.of("compaction", LanceTableFixture::compact),
            Named.of("tag moved to the newest version", t -> {
              t.deleteTag(MOVING_TAG);
              t.tag(MOVING_TAG, t.latestVersion());
            }));
    return IntStream.range(0, ROUNDS_PER_OPERATION).boxed().flatMap(round -> kinds.stream());
  }

  @ParameterizedTest(name = "concurrent writer round {index} of " + 4 * ROUNDS_PER_OPERATION + ": {0} while cleanup runs")
  @MethodSource("operations")
  void everyVersionReadsAfterAWriterCommittedDuringCleanup(Consumer<LanceTableFixture> operation) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    CompletableFuture<Void> writer =
        CompletableFuture.runAsync(() -> {
          awaitQuietly(start);
          operation.accept(table);
        });
    start.countDown();
    int cleanups = 0;
    do {
      CleanupResult result = cleanEverythingOld();
      assertThat(result.counters().failedDeletes()).as("failed deletes").isZero();
      cleanups++;
    } while (!writer.isDone());
    writer.get();
    System.out.printf("concurrent writer: %d cleanups ran during one writer commit%n", cleanups);

    TableSnapshot after = ReadBack.snapshot(table.root());
    assertThat(after.unreadable()).as("versions that no longer read after %d cleanups", cleanups).isEmpty();
    assertThat(after.entries()).containsKey("tag/" + MOVING_TAG);
    long rows = table.countRows();
    assertThat(rows).as("rows of the latest version").isLessThanOrEqualTo(expectedRows + 20);
    expectedRows = rows;
  }

  private static CleanupResult cleanEverythingOld() {
    TableStorageFactory real = HadoopTableStorage.factory(StorageConf.defaults());
    return new LocalCleanupAction(
            TableLocation.of(table.root().toString()),
            location -> new UnhurriedStorage(real.open(location)),
            Clock.systemUTC())
        .beforeTimestamp(Instant.now().plus(Duration.ofMinutes(1)))
        .errorIfTaggedOldVersions(false)
        .execute();
  }

  /**
   * Reads and deletes that each take a few milliseconds longer, as on a remote store, so that a
   * cleanup spans the writer's commit instead of finishing between two of its steps.
   */
  private static final class UnhurriedStorage extends ForwardingTableStorage {
    UnhurriedStorage(TableStorage delegate) {
      super(delegate);
    }

    @Override
    public byte[] read(String path, long offset, int length) {
      pause();
      return super.read(path, offset, length);
    }

    @Override
    public List<DeleteFailure> deleteBatch(List<String> paths) {
      pause();
      return super.deleteBatch(paths);
    }

    private static void pause() {
      try {
        Thread.sleep(3);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
