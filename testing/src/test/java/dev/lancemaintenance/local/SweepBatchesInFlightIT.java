package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage.DeleteFailure;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep deletes a decision's batches side by side, up to {@code max_concurrent_deletes} at a
 * time, also when the decision is held in memory and decided by one task: swept by the decide
 * tasks, such a decision sent its batches one after another (on the object store, the daily run of
 * {@code huge-steady} waited for 33 bulk deletes in a row; docs/benchmarks.md, "Stop 39").
 */
class SweepBatchesInFlightIT {
  /** Orphans in files of one row each: two sweep batches (1,000 files a batch), one decide task. */
  private static final int ORPHANS = 1_500;

  @TempDir Path dir;

  @Test
  void aDecisionOfOneTaskIsDeletedWithSeveralBatchesInFlightAndLeavesWhatTheSdkLeaves() throws InterruptedException {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("orphans.lance"));
    table.append(10);
    List<String> orphans = table.writeUncommitted(ORPHANS, 1);
    long latest = table.append(10);
    assertThat(orphans).as("the SDK's orphans, a data file per row").hasSizeGreaterThan(ORPHANS - 1);
    ContractPolicy policy = ContractPolicy.before("every orphan", Instant.now()).withBeforeVersion(latest).withDeleteUnverified();
    List<String> sdkLeaves = TableTwins.filesTheSdkLeaves(table.root(), dir.resolve("twin.lance"), policy.toOracle());

    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger mostInFlight = new AtomicInteger();
    // Each delete waits (at most a few seconds) until another is in flight beside it: deletes one
    // after another then show one at a time, however fast the disk.
    CountDownLatch two = new CountDownLatch(2);
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    TableStorageFactory watched = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public List<DeleteFailure> deleteBatch(List<String> paths) {
        mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
          two.countDown();
          two.await(5, TimeUnit.SECONDS);
          return super.deleteBatch(paths);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        } finally {
          inFlight.decrementAndGet();
        }
      }
    };
    LocalCleanupAction cleanup = new LocalCleanupAction(TableLocation.of(table.uri()), watched, Clock.systemUTC());
    CleanupResult result = policy.applyTo(cleanup).execute();

    assertThat(result.counters().dataFilesRemoved()).as("every orphan goes").isGreaterThanOrEqualTo(orphans.size());
    assertThat(mostInFlight.get()).as("deletes in flight at once").isGreaterThanOrEqualTo(2);
    assertThat(FileTimes.listFiles(table.root())).as("the files the SDK's cleanup leaves").isEqualTo(sdkLeaves);
    KeptManifests.assertEveryManifestReadsBack(table.root());
  }
}
