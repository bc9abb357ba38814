package dev.lancemaintenance.storage;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Who holds a {@link TableLease}: the run (its owner id), and the process it runs in, so that a
 * refused run can say whom it waits for and a run on the same machine can tell that the holder
 * died (a {@code kill -9} leaves its lease behind). Holds no credentials: a host name, a pid and
 * ids we made up.
 *
 * @param owner the run's id; a holder may take back a lease with its own owner at once (a restarted
 *     attempt of the same Flink operator)
 * @param host the holder's host name, for people
 * @param pid the holder's process id
 * @param processStartMillis when that process started, so a reused pid is not taken for the holder
 * @param machine the kernel boot id and pid namespace on Linux ({@code ""} elsewhere): two holders
 *     with the same value see the same processes, so "that pid is gone" means the holder died
 */
public record LeaseHolder(String owner, String host, long pid, long processStartMillis, String machine) {
  private static final ProcessHandle SELF = ProcessHandle.current();
  /**
   * When this process started, read once: a process's start time never changes while it runs, and
   * reading it ({@code ProcessHandle.info()}, a read of /proc on Linux) cost every run about a
   * millisecond, twice (the lease's holder and the spill directory's owner).
   */
  private static final long SELF_START_MILLIS = startMillis(SELF);
  private static final String THIS_HOST = hostName();
  private static final String THIS_MACHINE = machineId();

  /** A holder in this process for a new run: {@code <kind>-<random id>}. */
  public static LeaseHolder newRun(String kind) {
    return ofOwner(kind + "-" + UUID.randomUUID());
  }

  /** A holder in this process with a fixed owner id (the same across restarts of one operator). */
  public static LeaseHolder ofOwner(String owner) {
    return new LeaseHolder(owner, THIS_HOST, SELF.pid(), SELF_START_MILLIS, THIS_MACHINE);
  }

  /**
   * True when the holder's process is known to be gone: it ran on this machine (same boot, same pid
   * namespace) and no process with its pid and start time runs now. Unknown is never dead.
   */
  public boolean diedOnThisMachine() {
    if (machine.isEmpty() || !machine.equals(THIS_MACHINE)) {
      return false;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty() || !process.get().isAlive()) {
      return true;
    }
    long start = startMillis(process.get());
    return processStartMillis > 0 && start > 0 && start != processStartMillis;
  }

  /** True for a holder in this very process (another thread of it may be running the table). */
  public boolean isThisProcess() {
    return pid == SELF.pid() && machine.equals(THIS_MACHINE) && processStartMillis == SELF_START_MILLIS;
  }

  /** For messages: {@code run <owner> on host <host> (pid <pid>)}. */
  public String describe() {
    return "run " + owner + " on host " + host + " (pid " + pid + ")";
  }

  private static long startMillis(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
  }

  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env.trim();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Linux only: the boot id and the pid namespace; empty where either cannot be read. */
  private static String machineId() {
    try {
      String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).trim();
      String pidNamespace = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
      return boot + "/" + pidNamespace;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return "";
    }
  }
}
