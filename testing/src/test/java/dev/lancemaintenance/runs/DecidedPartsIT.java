package dev.lancemaintenance.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local engine's recorded decision on a store where each write is a round trip: the decided
 * parts end all at once, beside the plan, not a few at a time behind the decide stage's CPU bound,
 * and still every part ends before the first delete, so that a resumed run deletes only what a
 * whole recorded decision names (docs/ledger.md, section 9).
 */
class DecidedPartsIT {
  /** More partitions than the local engine decides at once on a small machine (4). */
  private static final int PARTITIONS = 8;
  private static final long WAIT_SECONDS = 10;

  @TempDir Path dir;

  @Test
  void everyDecidedPartEndsBeforeTheFirstDeleteAndAllEndAtOnceBesideThePlan() {
    LanceTableFixture table = RunTables.threeVersionsToExpire(dir);
    List<String> events = new CopyOnWriteArrayList<>();
    // A part's end (its upload on an object store) waits until every part and the plan are being
    // written at the same time; a run that ended its parts a few at a time, or before it wrote the
    // plan, would wait here in vain.
    CountDownLatch allInFlight = new CountDownLatch(PARTITIONS + 1);
    AtomicInteger waitedInVain = new AtomicInteger();
    TableStorageFactory stores = location -> new Recording(
        new HadoopTableStorage(location, StorageConf.defaults()), events, allInFlight, waitedInVain);

    new LocalCleanupAction(TableLocation.of(table.uri()), stores, Clock.systemUTC())
        // Every record to disk: a decide task, and a part, per partition (with everything in memory
        // this small table would be decided by one task, recording one part).
        .partitions(PARTITIONS).inMemorySpillRecords(0).parallelism(2 * PARTITIONS).beforeTimestamp(Instant.now()).execute();

    assertThat(waitedInVain).as("writes of parts and plan that waited in vain for the others").hasValue(0);
    int firstDelete = events.indexOf("delete");
    assertThat(firstDelete).as("the run deleted").isPositive();
    assertThat(events.subList(0, firstDelete)).as("before the first delete")
        .filteredOn(event -> event.startsWith("part ended")).hasSize(PARTITIONS);
    assertThat(events.subList(0, firstDelete)).contains("plan");
    assertThat(events.subList(firstDelete, events.size())).noneMatch(event -> event.startsWith("part ended"));
  }

  /** Records when decided parts end, when the plan is written and when Lance's files are deleted. */
  private static final class Recording extends ForwardingTableStorage {
    private final List<String> events;
    private final CountDownLatch allInFlight;
    private final AtomicInteger waitedInVain;

    Recording(TableStorage delegate, List<String> events, CountDownLatch allInFlight, AtomicInteger waitedInVain) {
      super(delegate);
      this.events = events;
      this.allInFlight = allInFlight;
      this.waitedInVain = waitedInVain;
    }

    @Override
    public OutputStream create(String path) {
      OutputStream out = super.create(path);
      if (!path.contains(".decided/part-decide-")) {
        return out;
      }
      return new FilterOutputStream(out) {
        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
          out.write(bytes, offset, length);
        }

        @Override
        public void close() throws IOException {
          inFlight();
          super.close();
          events.add("part ended " + path);
        }
      };
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) {
      if (path.endsWith(".decided/plan")) {
        inFlight();
        events.add("plan");
      }
      return super.createIfAbsent(path, content);
    }

    @Override
    public List<DeleteFailure> deleteBatch(List<String> paths) {
      if (!paths.stream().allMatch(TableLease::isLeaseFile)) {
        events.add("delete");
      }
      return super.deleteBatch(paths);
    }

    private void inFlight() {
      allInFlight.countDown();
      try {
        if (!allInFlight.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
          waitedInVain.incrementAndGet();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
