package dev.lancemaintenance.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LeaseHeldException;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.Latches;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease taken beside the plan on a store whose requests wait on the network ({@link
 * TableLease#acquireBeside}, docs/ledger.md section 9, "The take beside the plan"): the run starts
 * reading once it saw the lease's head free, while its generation is created and read back; it
 * writes and deletes nothing before that take is confirmed, and a run that takes the lease between
 * the look and the create makes it fail with nothing written or deleted. The dead-run lookup goes
 * beside the take too, and the mark does not wait for the start record.
 */
class LeaseTakeBesideThePlanIT {
  private static final String LEASE_FILES = TableLease.DIR + "/cleanup.lease.";

  @TempDir Path dir;

  private static TableStorageFactory stores() {
    return HadoopTableStorage.factory(StorageConf.defaults());
  }

  private static LocalCleanupAction cleanup(LanceTableFixture table, TableStorageFactory stores) {
    return new LocalCleanupAction(TableLocation.of(table.uri()), stores, Clock.systemUTC()).olderThan(Duration.ZERO);
  }

  @Test
  void theRunReadsBesideItsTakeAndWritesNothingBeforeTheTakeIsConfirmed() {
    LanceTableFixture table = RunTables.threeVersionsToExpire(dir);
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch planListed = new CountDownLatch(1);
    AtomicBoolean createSawThePlan = new AtomicBoolean();
    AtomicReference<String> taken = new AtomicReference<>();
    TableStorageFactory watched = location -> new Watched(stores().open(location), events, planListed) {
      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        if (isTake(path, content) && taken.get() == null) {
          // Held until the plan listed _versions/: a take in a row before the plan never sees it.
          createSawThePlan.set(Latches.awaitQuietly(planListed));
          boolean created = super.createIfAbsent(path, content);
          taken.set(path);
          events.add("lease created");
          return created;
        }
        return super.createIfAbsent(path, content);
      }

      @Override
      public byte[] read(String path, long offset, int length) {
        if (path.equals(taken.get()) && !events.contains("lease read back")) {
          events.add("lease read back");
        }
        return super.read(path, offset, length);
      }
    };

    cleanup(table, watched).execute();

    assertThat(createSawThePlan).as("the lease's generation was created while the plan listed _versions/").isTrue();
    assertThat(events).as("the plan's reads beside the take, every write after the take's read-back")
        .contains("plan's listing", "lease created", "lease read back", "write or delete");
    int confirmed = events.indexOf("lease read back");
    assertThat(events.indexOf("lease created")).isLessThan(confirmed);
    assertThat(events.subList(0, confirmed)).as("before the take was confirmed").doesNotContain("write or delete");
    assertThat(history(table)).extracting(RunEntry::state).containsExactly(RunState.FINISHED);
  }

  @Test
  void theDeadRunLookupGoesBesideTheTake() {
    LanceTableFixture table = RunTables.threeVersionsToExpire(dir);
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch runsListed = new CountDownLatch(1);
    AtomicBoolean createSawTheLookup = new AtomicBoolean();
    AtomicBoolean firstTake = new AtomicBoolean();
    TableStorageFactory watched = location -> new Watched(stores().open(location), events, new CountDownLatch(1)) {
      @Override
      public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
        if (dir.equals(RunRecords.DIR)) {
          runsListed.countDown();
        }
        return super.listFiles(dir, recursive);
      }

      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        if (isTake(path, content) && firstTake.compareAndSet(false, true)) {
          // Held until the run records were listed (not at all when they were listed already): a
          // lookup that waited for the take never comes.
          createSawTheLookup.set(Latches.awaitQuietly(runsListed));
        }
        return super.createIfAbsent(path, content);
      }
    };

    cleanup(table, watched).execute();

    assertThat(createSawTheLookup).as("the run records were listed while the lease's generation waited").isTrue();
    assertThat(history(table)).extracting(RunEntry::state).containsExactly(RunState.FINISHED);
  }

  @Test
  void theMarkReadsManifestsBesideTheStartRecordAndNothingIsWrittenBeforeIt() {
    LanceTableFixture table = RunTables.threeVersionsToExpire(dir);
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch manifestRead = new CountDownLatch(1);
    AtomicBoolean startSawTheMark = new AtomicBoolean();
    TableStorageFactory watched = location -> new Watched(stores().open(location), events, new CountDownLatch(1)) {
      @Override
      public byte[] read(String path, long offset, int length) {
        if (path.endsWith(".manifest")) {
          manifestRead.countDown();
        }
        return super.read(path, offset, length);
      }

      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        if (path.startsWith(RunRecords.DIR + "/") && path.endsWith(RunRecords.START)) {
          // Held until the mark read a manifest: a mark that waited for the start record never does.
          startSawTheMark.set(Latches.awaitQuietly(manifestRead));
          events.add("start record");
        }
        return super.createIfAbsent(path, content);
      }
    };

    cleanup(table, watched).execute();

    assertThat(startSawTheMark).as("the mark read a manifest while the start record waited").isTrue();
    assertThat(events.subList(0, events.indexOf("start record"))).as("before the start record")
        .doesNotContain("write or delete");
    assertThat(history(table)).extracting(RunEntry::state).containsExactly(RunState.FINISHED);
  }

  @Test
  void aRunThatTakesTheLeaseBetweenTheLookAndTheCreateFailsTheRunWithNothingWrittenOrDeleted() throws Exception {
    LanceTableFixture table = RunTables.threeVersionsToExpire(dir);
    Map<String, Long> before = tableFiles(table);
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch planListed = new CountDownLatch(1);
    AtomicReference<TableLease> other = new AtomicReference<>();
    TableStorage plain = stores().open(TableLocation.of(table.uri()));
    TableStorageFactory watched = location -> new Watched(stores().open(location), events, planListed) {
      @Override
      public boolean createIfAbsent(String path, byte[] content) {
        if (isTake(path, content) && other.get() == null) {
          // Our run saw the head free and is planning; another run takes the lease now, first.
          Latches.awaitQuietly(planListed);
          try {
            other.set(Leases.holdElsewhere(plain, Instant.now(), Duration.ofMinutes(5)));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
        return super.createIfAbsent(path, content);
      }
    };

    try {
      assertThatThrownBy(() -> cleanup(table, watched).execute())
          .isInstanceOf(LeaseHeldException.class)
          .satisfies(e -> assertThat(((LeaseHeldException) e).holderOwner()).isEqualTo(Leases.ELSEWHERE.owner()));
    } finally {
      if (other.get() != null) {
        other.get().close();
      }
      plain.close();
    }

    assertThat(other.get()).as("the other run took the lease while ours planned").isNotNull();
    assertThat(planListed.getCount()).as("our run read the table beside its take").isZero();
    assertThat(events).as("writes and deletes of the run that lost its take").doesNotContain("write or delete");
    assertThat(tableFiles(table)).as("every file of the table, as before").isEqualTo(before);
    assertThat(history(table)).as("no record of the run that lost its take").isEmpty();
  }

  /**
   * A store whose requests wait on the network (where the take goes beside the plan), that notes
   * the plan's listing of {@code _versions/} and every write or delete but the lease's own
   * generations as events.
   */
  private static class Watched extends PlanWatchingStorage {
    Watched(TableStorage delegate, List<String> events, CountDownLatch planListed) {
      super(delegate, events, planListed);
    }

    @Override
    public boolean requestsWaitOnNetwork() {
      return true;
    }

    @Override
    protected void written(String path) {
      if (!path.startsWith(LEASE_FILES)) {
        events.add("write or delete");
      }
    }
  }

  /** The create of a lease generation that takes the table (not a release). */
  private static boolean isTake(String path, byte[] content) {
    return path.startsWith(LEASE_FILES) && !new String(content, StandardCharsets.UTF_8).contains("released=true");
  }

  /** The table's files outside {@code _maintenance/}, with their sizes. */
  private static Map<String, Long> tableFiles(LanceTableFixture table) {
    Path root = table.root();
    try (Stream<Path> files = Files.walk(root)) {
      Map<String, Long> found = new TreeMap<>();
      files.filter(Files::isRegularFile)
          .map(file -> root.relativize(file).toString())
          .filter(name -> !TableLease.isLeaseFile(name))
          .forEach(name -> found.put(name, root.resolve(name).toFile().length()));
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<RunEntry> history(LanceTableFixture table) {
    try (TableStorage storage = stores().open(TableLocation.of(table.uri()))) {
      return new RunRecords(storage).history(10, Clock.systemUTC());
    }
  }

}
