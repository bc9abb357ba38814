package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.lancemaintenance.storage.Leases.deadPid;
import static dev.lancemaintenance.storage.Leases.onAnotherThread;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table lease on a local disk: one holder at a time, renewal, expiry, dead holders, the message. */
class TableLeaseTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(1);
  private static final int TAKES_EACH = 3;

  @TempDir Path tableDir;
  private final List<TableStorage> opened = new ArrayList<>();

  @AfterEach
  void closeStorages() {
    opened.forEach(TableStorage::close);
  }

  @Test
  void neverHasTwoHoldersWhenContendersRace() throws Exception {
    int contenders = 4;
    AtomicInteger holding = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(contenders);
    List<Future<?>> running = new ArrayList<>();
    for (int i = 0; i < contenders; i++) {
      LeaseHolder holder = LeaseHolder.ofOwner("contender-" + i);
      TableStorage storage = storage();
      running.add(pool.submit(() -> {
        // Each contender keeps trying until it has held the lease a few times: a fixed number of
        // attempts let a slow machine's scheduler hand nearly every attempt to a lost race.
        for (int takes = 0; takes < TAKES_EACH; ) {
          Optional<TableLease> lease = TableLease.tryAcquire(storage, holder, TIMEOUT, Clock.systemUTC());
          if (lease.isEmpty()) {
            Thread.sleep(1);
            continue;
          }
          takes++;
          try (TableLease held = lease.get()) {
            mostAtOnce.accumulateAndGet(holding.incrementAndGet(), Math::max);
            Thread.sleep(2);
            holding.decrementAndGet();
          }
        }
        return null;
      }));
    }
    for (Future<?> contender : running) {
      contender.get(2, TimeUnit.MINUTES); // every contender got its turns: no lease stays stuck
    }
    pool.shutdown();

    assertThat(mostAtOnce.get()).as("holders at the same time").isEqualTo(1);
    assertThat(leaseFiles()).as("lease files left once every holder released: the last run's take and release,"
        + " older ones pruned when it took the lease").hasSize(2);
  }

  @Test
  void aSecondRunFailsNamingTheHolderHostPidAndSince() throws Exception {
    Instant since = Instant.parse("2026-01-02T03:04:05Z");
    LeaseHolder first = LeaseHolder.newRun("clean");
    try (TableLease held = TableLease.acquire(storage(), "clean", first, TIMEOUT, at(since))) {
      assertThatThrownBy(() -> onAnotherThread(() -> TableLease.acquire(storage(), "clean", LeaseHolder.newRun("clean"),
              TIMEOUT, at(since.plusSeconds(10)))))
          .isInstanceOf(LeaseHeldException.class)
          .hasMessageContaining("Cannot clean " + TableLocation.of(tableDir.toString()))
          .hasMessageContaining("run " + first.owner())
          .hasMessageContaining("on host " + first.host())
          .hasMessageContaining("(pid " + ProcessHandle.current().pid() + ")")
          .hasMessageContaining("since 2026-01-02T03:04:05Z")
          .hasMessageContaining("renewed until 2026-01-02T03:05:05Z")
          .hasMessageContaining("_maintenance/cleanup.lease.");
    }
  }

  @Test
  void anExpiredLeaseIsTakenOverAndItsLateHolderCannotReleaseIt() throws Exception {
    Instant now = Instant.now();
    TableLease dead = onAnotherThread(() -> TableLease.acquire(storage(), "clean", foreignHolder("dead"), TIMEOUT, at(now)));

    assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), foreignHolder("next"), TIMEOUT, at(now.plusSeconds(30)))))
        .as("while the lease is live").isEmpty();
    TableLease next = onAnotherThread(
        () -> TableLease.tryAcquire(storage(), foreignHolder("next"), TIMEOUT, at(now.plusSeconds(61))).orElseThrow());
    dead.close();

    assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), foreignHolder("third"), TIMEOUT, at(now.plusSeconds(62)))))
        .as("after the expired holder's late release").isEmpty();
    next.close();
    assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), foreignHolder("third"), TIMEOUT, at(now.plusSeconds(63)))))
        .as("after the new holder's release").isPresent();
  }

  @Test
  void aHolderThatCannotRenewInTimeLearnsItLostTheLease() throws Exception {
    Instant now = Instant.now();
    TableLease stalled = onAnotherThread(() -> TableLease.acquire(storage(), "clean", foreignHolder("stalled"), TIMEOUT, at(now)));
    TableLease taker = onAnotherThread(
        () -> TableLease.tryAcquire(storage(), foreignHolder("taker"), TIMEOUT, at(now.plusSeconds(61))).orElseThrow());

    stalled.renew();

    assertThatThrownBy(stalled::ensureHeld)
        .hasMessageContaining("lost the table's lease to run taker");
    taker.ensureHeld();
    stalled.close();
    taker.close();
  }

  @Test
  void renewalKeepsTheLeaseBeyondItsFirstTimeout() throws Exception {
    Duration shortTimeout = Duration.ofMillis(600);
    try (TableLease held = TableLease.acquire(storage(), "clean", LeaseHolder.newRun("clean"), shortTimeout, Clock.systemUTC())) {
      Thread.sleep(3 * shortTimeout.toMillis());
      held.ensureHeld();
      assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), LeaseHolder.newRun("clean"), shortTimeout, Clock.systemUTC())))
          .as("three timeouts later, renewed by the heartbeat").isEmpty();
    }
  }

  @Test
  void aLeaseOfADeadProcessOnThisMachineIsTakenAtOnce() throws Exception {
    LeaseHolder self = LeaseHolder.ofOwner("crashed");
    // Same machine and boot, a pid that no process has now: what a kill -9 leaves behind.
    LeaseHolder dead = new LeaseHolder("crashed", self.host(), deadPid(), self.processStartMillis(), self.machine());
    onAnotherThread(() -> TableLease.acquire(storage(), "clean", dead, Duration.ofDays(1), Clock.systemUTC()));

    assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), LeaseHolder.newRun("clean"), TIMEOUT, Clock.systemUTC())))
        .as("taken over from the dead holder, a day before its expiry").isPresent();
  }

  @Test
  void aLeaseOfAProcessOnAnotherMachineWaitsForItsExpiry() throws Exception {
    onAnotherThread(() -> TableLease.acquire(storage(), "clean", foreignHolder("elsewhere"), Duration.ofDays(1), Clock.systemUTC()));

    assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), LeaseHolder.newRun("clean"), TIMEOUT, Clock.systemUTC())))
        .as("a pid on another machine says nothing about the holder").isEmpty();
  }

  @Test
  void theSameThreadGetsANestedHandleThatLeavesTheLeaseToTheOuterOne() throws Exception {
    try (TableLease outer = TableLease.acquire(storage(), "optimize")) {
      try (TableLease nested = TableLease.acquire(storage(), "clean")) {
        assertThat(nested.holder()).isEqualTo(outer.holder());
      }
      assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), LeaseHolder.newRun("clean"), TIMEOUT, Clock.systemUTC())))
          .as("still held after the nested handle closed").isEmpty();
    }
    assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), LeaseHolder.newRun("clean"), TIMEOUT, Clock.systemUTC())))
        .as("free once the outer one closed").isPresent();
  }

  @Test
  void workBesideTheRunThatRunsOutOfHeapIsLoggedByNameWithTheHeapAndTheLeaseIsStillReleased() throws Exception {
    PrintStream stderr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try (TableLease held = TableLease.acquire(storage(), "clean")) {
      // What a JVM throws when the ledger's commit outgrows its heap: the work's own thread fails.
      TableLease.beforeRelease(storage(), "lance-ledger-commit", on -> {
        throw new OutOfMemoryError("Java heap space");
      });
    } finally {
      System.setErr(stderr);
    }

    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("lance-ledger-commit (work under the table's lease) failed: java.lang.OutOfMemoryError: Java heap space")
        .contains("this JVM's heap holds at most " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB (-Xmx)");
    assertThat(onAnotherThread(() -> TableLease.tryAcquire(storage(), LeaseHolder.newRun("clean"), TIMEOUT, Clock.systemUTC())))
        .as("released all the same").isPresent();
  }

  @Test
  void aLeaseFileCutShortCountsAsHeldForAGracePeriod() throws Exception {
    Files.createDirectories(tableDir.resolve(TableLease.DIR));
    Files.writeString(tableDir.resolve(TableLease.pathOf(7)), "owner=half-writ");

    assertThatThrownBy(() -> onAnotherThread(() -> TableLease.acquire(storage(), "clean")))
        .isInstanceOf(LeaseHeldException.class)
        .hasMessageContaining("still being written");
  }

  private static LeaseHolder foreignHolder(String owner) {
    return new LeaseHolder(owner, "other-host", 4242, 1, "other-machine");
  }

  private static Clock at(Instant instant) {
    return Clock.fixed(instant, ZoneOffset.UTC);
  }

  private TableStorage storage() {
    TableStorage storage = new HadoopTableStorage(TableLocation.of(tableDir.toString()), StorageConf.defaults());
    synchronized (opened) {
      opened.add(storage);
    }
    return storage;
  }

  private List<String> leaseFiles() throws Exception {
    try (Stream<Path> files = Files.list(tableDir.resolve(TableLease.DIR))) {
      return files.map(file -> file.getFileName().toString()).toList();
    }
  }
}
