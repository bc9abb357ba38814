package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.lancemaintenance.storage.Leases.onAnotherThread;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.FaultyTableStorage;
import dev.lancemaintenance.storage.FaultyTableStorage.Faults;
import dev.lancemaintenance.storage.LeaseHeldException;
import dev.lancemaintenance.storage.LeaseHolder;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The table lease on one real store, on that store's own atomic create-if-absent: racers get one
 * winner; a second cleanup while one runs fails naming the holder with nothing deleted; an expired
 * lease is taken over; a dry run takes none; the lease is released at the end. Each store's IT
 * says how to reach the store and how to make a table there.
 */
abstract class LeaseOnStoreContract implements LedgerOnStoreContract {
  /** Rounds raced on a store without atomic create before concluding that its racers never overlap. */
  private static final int RACES_ON_A_STORE_WITHOUT_ATOMIC_CREATE = 10;

  /** The store's settings. */
  @Override
  public abstract StorageConf storageConf();

  /** Appends, a delete, a compaction and an append: what a cleanup before now + 1 min cleans. */
  static Path writeLocalTable(Path root) {
    LanceTableFixture table = LanceTableFixture.create(root);
    table.append(20);
    table.append(20);
    table.deleteWhere("id % 3 = 0");
    table.compact();
    table.append(5);
    return table.root();
  }

  /** A fresh table on the store with versions and files that a cleanup before now + 1 min removes. */
  abstract String freshTable(String name);

  /** An empty place on the store for a table's lease alone. */
  @Override
  public abstract String emptyRoot(String name);

  /** Whether the store decides create-if-absent atomically (false: it is documented best effort). */
  @Override
  public abstract boolean createIfAbsentIsAtomic();

  private SortedMap<String, Long> files(String uri) {
    return TableCopies.listFiles(uri, storageConf().toConfiguration());
  }

  private CleanupAction cleanup(String uri, TableStorageFactory storage) {
    return new LocalCleanupAction(TableLocation.of(uri), storage, Clock.systemUTC())
        .beforeTimestamp(Instant.now().plus(Duration.ofMinutes(1)));
  }

  private TableStorageFactory plain() {
    return stores();
  }

  private TableStorage open(String uri) {
    return stores().open(TableLocation.of(uri));
  }

  @Test
  void createIfAbsentHasExactlyOneWinnerAmongRacers() throws Exception {
    String root = emptyRoot("race");
    if (!createIfAbsentIsAtomic()) {
      // Pinned so that the day the store honours the condition, this test says so. Whether racers
      // overlap in one round is up to the scheduler, so a round with one winner proves nothing:
      // rounds are raced, each on a name of its own, until one shows two winners.
      List<List<Integer>> rounds = new ArrayList<>();
      for (int round = 0; round < RACES_ON_A_STORE_WITHOUT_ATOMIC_CREATE; round++) {
        List<Integer> winners = race(root, "raced-" + round);
        assertThat(winners).as("racers that 'created' raced-%d", round).isNotEmpty();
        rounds.add(winners);
        if (winners.size() > 1) {
          return;
        }
      }
      assertThat(rounds).as("winners of each round on a store without atomic create, where racers overlap")
          .anySatisfy(winners -> assertThat(winners).hasSizeGreaterThan(1));
      return;
    }
    List<Integer> winners = race(root, "raced");
    assertThat(winners).as("racers that created the file").hasSize(1);
    try (TableStorage storage = open(root)) {
      assertThat(new String(storage.readFully(TableLease.DIR + "/raced"), StandardCharsets.UTF_8))
          .as("the file holds the winner's content").isEqualTo("racer " + winners.get(0));
      assertThat(storage.createIfAbsent(TableLease.DIR + "/raced", new byte[] {1}))
          .as("a later create of the same name").isFalse();
    }
  }

  /** Eight racers, each on a storage of its own opened beforehand, create one name at once; the winners. */
  private List<Integer> race(String root, String name) throws Exception {
    int racers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(racers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Boolean>> results = new ArrayList<>();
    List<TableStorage> storages = new ArrayList<>();
    try {
      for (int i = 0; i < racers; i++) {
        TableStorage storage = open(root);
        storages.add(storage);
        byte[] content = ("racer " + i).getBytes(StandardCharsets.UTF_8);
        results.add(pool.submit(() -> {
          start.await();
          return storage.createIfAbsent(TableLease.DIR + "/" + name, content);
        }));
      }
      start.countDown();
      List<Integer> winners = new ArrayList<>();
      for (int i = 0; i < racers; i++) {
        if (results.get(i).get(1, TimeUnit.MINUTES)) {
          winners.add(i);
        }
      }
      return winners;
    } finally {
      pool.shutdown();
      storages.forEach(TableStorage::close);
    }
  }

  @Test
  void aSecondCleanupWhileOneRunsFailsNamingTheHolderWithZeroDeletes() {
    String table = freshTable("two-runs");
    SortedMap<String, Long> before = files(table);
    List<Throwable> second = Collections.synchronizedList(new ArrayList<>());
    List<SortedMap<String, Long>> afterSecond = Collections.synchronizedList(new ArrayList<>());
    Faults faults = new Faults().beforeFirstDelete(() -> {
      try {
        onAnotherThread(() -> cleanup(table, plain()).execute());
      } catch (Throwable refused) {
        second.add(refused);
      }
      afterSecond.add(files(table));
    });
    TableStorageFactory stores = stores();
    TableStorageFactory firstStorage = location -> new FaultyTableStorage(stores.open(location), faults);

    CleanupResult first = cleanup(table, firstStorage).execute();

    assertThat(second).as("the second run's failure").singleElement()
        .isInstanceOf(LeaseHeldException.class)
        .extracting(Throwable::getMessage).asString()
        .contains("holds the table's lease: run clean-")
        .contains("(pid " + ProcessHandle.current().pid() + ")")
        .contains("Nothing was deleted");
    assertThat(afterSecond).as("files once the second run failed").containsExactly(before);
    assertThat(first.counters().oldVersions()).as("the first run removed versions").isPositive();
    assertThat(tryLease(table)).as("released at the end").isTrue();
  }

  @Test
  void anExpiredLeaseIsTakenOverAndADryRunTakesNone() throws Exception {
    String table = freshTable("expired");
    TableLease live = holdElsewhere(table, Instant.now(), Duration.ofDays(1));
    SortedMap<String, Long> before = files(table);

    assertThat(cleanup(table, plain()).dryRun(true).execute().counters().oldVersions())
        .as("a dry run beside a live holder").isPositive();
    assertThatThrownBy(() -> cleanup(table, plain()).execute())
        .isInstanceOf(LeaseHeldException.class)
        .hasMessageContaining("run elsewhere on host other-host (pid 4242)");
    assertThat(files(table)).as("nothing deleted").isEqualTo(before);
    live.close();

    holdElsewhere(table, Instant.now().minus(Duration.ofHours(1)), Duration.ofMinutes(5));
    CleanupResult taken = cleanup(table, plain()).execute();
    assertThat(taken.counters().oldVersions()).as("the run that took the expired lease over").isPositive();
  }

  private TableLease holdElsewhere(String table, Instant since, Duration timeout) throws Exception {
    return Leases.holdElsewhere(open(table), since, timeout);
  }

  private boolean tryLease(String table) {
    try (TableStorage storage = open(table)) {
      return onAnotherThread(() -> {
        var lease = TableLease.tryAcquire(storage, LeaseHolder.newRun("probe"), Duration.ofMinutes(1), Clock.systemUTC());
        lease.ifPresent(TableLease::close);
        return lease.isPresent();
      });
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

}
