package dev.lancemaintenance.storage;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Other runs' leases for tests: holders on other machines, dead processes, other threads. */
public final class Leases {
  /** A run on another machine: its pid says nothing here, only its expiry frees the table. */
  public static final LeaseHolder ELSEWHERE = new LeaseHolder("elsewhere", "other-host", 4242, 1, "other-machine");

  private Leases() {}

  /** {@link #ELSEWHERE}'s lease on the table, taken at {@code since} (its heartbeat renews from there). */
  public static TableLease holdElsewhere(TableStorage storage, Instant since, Duration timeout) throws Exception {
    return onAnotherThread(() -> TableLease.acquire(storage, "clean", ELSEWHERE, timeout, Clock.fixed(since, ZoneOffset.UTC)));
  }

  /** A pid that no process of this machine has now. */
  public static long deadPid() {
    long pid = 4_000_000;
    while (ProcessHandle.of(pid).isPresent()) {
      pid++;
    }
    return pid;
  }

  /** Runs {@code task} as another run would: one thread that holds a table's lease gets a nested handle. */
  public static <T> T onAnotherThread(Callable<T> task) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      return thread.submit(task).get(5, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      thread.shutdown();
    }
  }
}
