package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.ledger.ListingSkip;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Our reference engine, in this JVM, through a storage wrapper that counts the bytes it reads;
 * {@code local} marks in full, {@code local-incremental} from the maintenance ledger that the run
 * of the day before left (built, untimed, over every version but the newest {@code newVersions}).
 * The table is opened as the CLI opens it ({@link TableStorages}: java.nio for a table on this
 * machine, Hadoop for any other store), so that both runs cost what a user's run costs.
 */
final class LocalEngineCleanup implements Contender {
  /**
   * {@code -Dbenchmark.listing=auto}: the daily run with {@code listing => 'auto'} (default: the
   * default, {@code 'always'}), on the record a listing run of the day before leaves, and without the
   * margin for a {@code PUT} in flight (the table's history is minutes old; a real daily run's
   * expiring versions are days old, where the margin costs nothing).
   */
  private static final boolean EXAMINES = "auto".equals(System.getProperty("benchmark.listing"));

  private final Optional<Integer> newVersions;
  private final boolean examines;

  LocalEngineCleanup() {
    this.newVersions = Optional.empty();
    this.examines = EXAMINES;
  }

  LocalEngineCleanup(int newVersions) {
    this(newVersions, EXAMINES);
  }

  /**
   * The daily run; with {@code examines}, {@code listing => 'auto'} whatever {@code
   * benchmark.listing} says ({@code local-incremental-auto} of the object-store runner, which so
   * interleaves both listing paths in one JVM).
   */
  LocalEngineCleanup(int newVersions, boolean examines) {
    this.newVersions = Optional.of(newVersions);
    this.examines = examines;
  }

  @Override
  public String name() {
    return newVersions.isEmpty() ? "local" : examines && !EXAMINES ? "local-incremental-auto" : "local-incremental";
  }

  @Override
  public void prepare(Table table) {
    newVersions.ifPresent(count -> YesterdaysRun.leave(table, count, examines));
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    AtomicLong bytesRead = new AtomicLong();
    StorageConf conf = StorageConf.of(table.hadoopOptions());
    new LocalCleanupAction(
            TableLocation.of(table.hadoopUri()),
            InstrumentedStorage.factory(TableStorages.factory(conf), bytesRead),
            Clock.systemUTC())
        // No age limit, as the SDK's policy: the version cutoff alone decides (our default is 7 days).
        .olderThan(Duration.ZERO)
        .beforeVersion(beforeVersion)
        .markMode(newVersions.isPresent() ? MarkMode.INCREMENTAL : MarkMode.FULL)
        .alwaysList(!examines)
        .putMargin(examines ? Duration.ZERO : ListingSkip.PUT_MARGIN)
        .execute();
    return bytesRead.get();
  }
}
