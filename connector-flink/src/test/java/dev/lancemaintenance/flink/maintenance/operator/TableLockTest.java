package dev.lancemaintenance.flink.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table's maintenance lock on a local disk: one holder at a time, expired leases are taken over. */
class TableLockTest {
  private static final long LEASE_MILLIS = 60_000;

  @TempDir Path tableDir;

  @Test
  void neverHasTwoHoldersWhenContendersRace() throws Exception {
    int contenders = 4;
    AtomicInteger holding = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    AtomicInteger acquisitions = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(contenders);
    List<Future<?>> running = new ArrayList<>();
    for (int i = 0; i < contenders; i++) {
      String owner = "contender-" + i;
      running.add(pool.submit(() -> {
        for (int attempt = 0; attempt < 30; attempt++) {
          Optional<TableLock> lock = acquire(owner, System.currentTimeMillis());
          if (lock.isEmpty()) {
            continue;
          }
          try (TableLock held = lock.get()) {
            mostAtOnce.accumulateAndGet(holding.incrementAndGet(), Math::max);
            acquisitions.incrementAndGet();
            Thread.sleep(2);
            holding.decrementAndGet();
          }
        }
        return null;
      }));
    }
    for (Future<?> contender : running) {
      contender.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();

    assertThat(mostAtOnce.get()).as("holders at the same time").isEqualTo(1);
    assertThat(acquisitions.get()).as("runs that got the lock").isGreaterThan(contenders);
    assertThat(leaseFiles()).as("lease files left once every holder released (older ones pruned)").hasSize(1);
  }

  @Test
  void takesOverAnExpiredLeaseAndTheOldHolderCannotReleaseIt() {
    long now = System.currentTimeMillis();
    TableLock dead = acquire("dead", now, now + 1_000).orElseThrow();

    assertThat(acquire("next", now + 500)).as("while the lease is live").isEmpty();
    TableLock next = acquire("next", now + 1_500).orElseThrow();
    dead.close();

    assertThat(acquire("third", now + 1_600)).as("after the expired holder's late release").isEmpty();
    next.close();
    assertThat(acquire("third", now + 1_700)).as("after the new holder's release").isPresent();
  }

  @Test
  void anOwnerTakesBackItsOwnLeaseLeftByAnEarlierAttempt() {
    long now = System.currentTimeMillis();
    acquire("job-a/op", now).orElseThrow();

    assertThat(acquire("job-a/other-op", now + 10)).as("another operator of the same job").isEmpty();
    assertThat(acquire("job-a/op", now + 10)).as("the same operator, restarted").isPresent();
  }

  private Optional<TableLock> acquire(String owner, long nowMillis) {
    return acquire(owner, nowMillis, nowMillis + LEASE_MILLIS);
  }

  private Optional<TableLock> acquire(String owner, long nowMillis, long expiresAtMillis) {
    return TableLock.tryAcquire(
        TableLocation.of(tableDir.toUri().toString()), StorageConf.defaults(), owner, nowMillis, expiresAtMillis);
  }

  private List<String> leaseFiles() throws Exception {
    try (Stream<Path> files = Files.list(tableDir.resolve(TableLock.LOCK_DIR))) {
      return files.map(file -> file.getFileName().toString()).filter(name -> !name.endsWith(".crc")).toList();
    }
  }
}
