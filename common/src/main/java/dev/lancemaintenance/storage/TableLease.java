package dev.lancemaintenance.storage;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.MaintenanceException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table's maintenance lease: at most one run that deletes (cleanup on any engine, optimize,
 * compaction's commits, periodic Flink maintenance) works on a table at a time. It lives in the
 * table's own store, under {@code _maintenance/}, a directory Lance never reads, lists or cleans.
 *
 * <p><b>Protocol.</b> The lease is a chain of numbered files, {@code cleanup.lease.<generation>};
 * the highest generation says who holds the table, since when and until when. To take it, a run
 * reads the highest and, when it is released or expired (or its holder is a dead process on this
 * machine, see {@link LeaseHolder#diedOnThisMachine}), creates the next generation with {@link
 * TableStorage#createIfAbsent}: of all runs that read the same generation, exactly one creates the
 * next. The holder renews by creating one more generation with a later expiry (a heartbeat thread,
 * every third of the timeout), and releases by creating one that is already expired. No lease file
 * is renamed or overwritten, and none is deleted while it is the highest, so a slow contender that
 * acts on a stale read can never remove a lease someone else just took: compare-and-swap is never
 * needed, only create-if-absent. Older generations are pruned; as a slow contender may re-create a
 * pruned number, a new lease holds only if it is still the highest right after its creation. A
 * lease file that cannot be parsed (its writer is writing it, or died mid-write on a store without
 * atomic publication) counts as held until {@link #UNREADABLE_GRACE_MILLIS} after it was written.
 *
 * <p><b>Where it is exact.</b> Exactly as strong as the store's create-if-absent: a hard link on
 * local disks, the NameNode on HDFS, a conditional PUT ({@code If-None-Match: *}) on S3; on a
 * store without such a primitive it is best effort and says so in a warning (see {@link
 * HadoopTableStorage#createIfAbsent}). Expiry compares the holder's clock with the contender's:
 * clocks must agree to well within the timeout.
 *
 * <p><b>Losing it.</b> A holder that cannot renew in time (stalled for two thirds of the timeout)
 * can be taken over; its heartbeat then finds the next generation taken, logs who took it, and
 * {@link #ensureHeld} fails from then on, so the run stops at its next check instead of deleting
 * alongside the new holder.
 *
 * <p>One thread that already holds a table's lease gets a nested handle for it (an optimize holds
 * it across its compaction and its cleanup); another thread, even in the same process, contends
 * like any other run.
 */
public final class TableLease implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TableLease.class);

  /**
   * The directory of maintenance's own files in the table: this lease and the maintenance ledger
   * ({@code _maintenance/ledger/}, {@link dev.lancemaintenance.ledger.Ledger}). Lance never lists it,
   * and neither does our cleanup (it lists only Lance's managed directories).
   */
  public static final String DIR = "_maintenance";
  static final String PREFIX = "cleanup.lease.";
  /** How long a lease outlives its holder's last renewal. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
  static final long UNREADABLE_GRACE_MILLIS = 60_000;
  private static final int ATTEMPTS = 5;
  /** The take of a lease taken in one step: done. */
  private static final CompletableFuture<Void> TAKEN = CompletableFuture.completedFuture(null);
  private static final ThreadLocal<Map<TableLocation, TableLease>> HELD_BY_THIS_THREAD = ThreadLocal.withInitial(HashMap::new);

  private final TableStorage storage;
  private final LeaseHolder holder;
  private final long sinceMillis;
  private final Duration timeout;
  private final Clock clock;
  /** The lease a nested handle stands for; null for the lease itself. */
  private final TableLease outer;
  private final Thread takenBy;
  private long generation;
  private boolean closed;
  /** Work of the holder's that must end before the lease is released ({@link #beforeRelease}). */
  private final List<HoldersWork> beforeRelease = new CopyOnWriteArrayList<>();
  /** Work of the holder's that goes on beside the release and ends before {@link #close} returns ({@link #besideRelease}). */
  private final List<HoldersWork> besideRelease = new CopyOnWriteArrayList<>();
  private volatile String lostTo;
  private ScheduledExecutorService heartbeat;
  /**
   * The take's second step: done at once for a lease taken in one step; for one taken beside the
   * run's reads ({@link #acquireBeside}), completed once its generation was created and read back,
   * or failed with {@link LeaseHeldException} when another run won it. A nested handle shares its
   * outer lease's.
   */
  private final CompletableFuture<Void> take;

  private TableLease(TableStorage storage, LeaseHolder holder, long sinceMillis, Duration timeout, Clock clock,
      long generation, TableLease outer, CompletableFuture<Void> take) {
    this.storage = storage;
    this.take = take;
    this.holder = holder;
    this.sinceMillis = sinceMillis;
    this.timeout = timeout;
    this.clock = clock;
    this.generation = generation;
    this.outer = outer;
    this.takenBy = Thread.currentThread();
  }

  /**
   * True for maintenance's own files (the lease's and the ledger's, everything under {@value #DIR}):
   * test wrappers that count or break a run's requests pass them by, and comparisons with the SDK's
   * twin leave them out. The one test for "ours, not Lance's".
   */
  public static boolean isLeaseFile(String path) {
    return path.equals(DIR) || path.startsWith(DIR + "/");
  }

  /**
   * Takes the table's lease for a new run of this process, renewed until {@link #close}, or throws
   * {@link LeaseHeldException} naming the holder.
   *
   * @param action what the run does, for the message ({@code "clean"}, {@code "optimize"})
   */
  public static TableLease acquire(TableStorage storage, String action) {
    return acquire(storage, action, LeaseHolder.newRun(action), DEFAULT_TIMEOUT, Clock.systemUTC());
  }

  /** As {@link #acquire(TableStorage, String)}, with the holder, timeout and clock given. */
  public static TableLease acquire(TableStorage storage, String action, LeaseHolder holder, Duration timeout, Clock clock) {
    Taken taken = take(storage, holder, timeout, clock);
    if (taken.lease != null) {
      return taken.lease;
    }
    throw new LeaseHeldException(action, storage.location(), taken.heldBy, taken.heldPath);
  }

  /** Takes the lease, or returns empty when another run holds it (periodic runs just skip a turn). */
  public static Optional<TableLease> tryAcquire(TableStorage storage, LeaseHolder holder, Duration timeout, Clock clock) {
    return Optional.ofNullable(take(storage, holder, timeout, clock).lease);
  }

  /**
   * Takes the table's lease in two steps, for a run whose first requests only read the table: looks
   * at the head here, and throws {@link LeaseHeldException} when another run holds it; when it is
   * free, returns at once while the conditional create of the next generation and its read-back go
   * on beside the caller's reads. {@link #awaitTaken} (and {@link #ensureHeld}) wait for that second
   * step and throw {@link LeaseHeldException} when another run won the generation; so does every
   * write the lease guards ({@link #beforeRelease}, {@link #besideRelease}, the run's start record).
   *
   * <p>Why reads may start at the look (docs/ledger.md, section 9, "The take beside the plan"): a
   * head that reads free is released, expired, or its holder died; a holder writes its ledger commit
   * and end record before its release, so what the look saw free was written after them, and the
   * reads begin after them. A run that takes the lease between our look and our create holds the
   * generation we want (our create fails) or the one above it (our read-back sees it): either way
   * this take fails before the run wrote or deleted anything, and its reads are thrown away.
   */
  public static TableLease acquireBeside(TableStorage storage, String action) {
    return acquireBeside(storage, action, LeaseHolder.newRun(action), DEFAULT_TIMEOUT, Clock.systemUTC());
  }

  /** As {@link #acquireBeside(TableStorage, String)}, with the holder, timeout and clock given. */
  public static TableLease acquireBeside(TableStorage storage, String action, LeaseHolder holder, Duration timeout, Clock clock) {
    checkTimeout(timeout);
    Optional<TableLease> nested = nestedHandle(storage, holder, timeout, clock);
    if (nested.isPresent()) {
      return nested.get();
    }
    Look look = null;
    for (int attempt = 0; attempt < ATTEMPTS && look == null; attempt++) {
      look = lookOnce(storage, holder, clock).orElse(null);
    }
    if (look == null) {
      Look holding = holderNow(storage, clock);
      throw new LeaseHeldException(action, storage.location(), holding.heldBy(), holding.heldPath());
    }
    if (look.held()) {
      throw new LeaseHeldException(action, storage.location(), look.heldBy(), look.heldPath());
    }
    CompletableFuture<Void> claimed = new CompletableFuture<>();
    TableLease lease = new TableLease(storage, holder, look.now(), timeout, clock, look.next(), null, claimed);
    HELD_BY_THIS_THREAD.get().put(storage.location(), lease);
    Look free = look;
    DaemonThreads.beside("lance-lease-take", () -> {
      try {
        if (claim(storage, holder, free, timeout)) {
          lease.startHolding();
          claimed.complete(null);
        } else {
          Look holding = holderNow(storage, clock);
          claimed.completeExceptionally(new LeaseHeldException(action, storage.location(), holding.heldBy(), holding.heldPath()));
        }
      } catch (RuntimeException | Error e) {
        claimed.completeExceptionally(e);
      }
      return null;
    });
    return lease;
  }

  private static Taken take(TableStorage storage, LeaseHolder holder, Duration timeout, Clock clock) {
    checkTimeout(timeout);
    Optional<TableLease> nested = nestedHandle(storage, holder, timeout, clock);
    if (nested.isPresent()) {
      return new Taken(nested.get(), null, null);
    }
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Look> seen = lookOnce(storage, holder, clock);
      if (seen.isEmpty()) {
        continue; // pruned between listing and reading: a renewal or a release just happened
      }
      Look look = seen.get();
      if (look.held()) {
        return new Taken(null, look.heldBy(), look.heldPath());
      }
      if (claim(storage, holder, look, timeout)) {
        TableLease lease = new TableLease(storage, holder, look.now(), timeout, clock, look.next(), null, TAKEN);
        lease.startHolding();
        HELD_BY_THIS_THREAD.get().put(storage.location(), lease);
        return new Taken(lease, null, null);
      }
      // Another run won this generation; the next look shows whom.
    }
    // Lost every race: someone is taking and releasing it right now.
    Look holding = holderNow(storage, clock);
    return new Taken(null, holding.heldBy(), holding.heldPath());
  }

  private static void checkTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("lease timeout must be positive: " + timeout);
    }
  }

  /** A handle on the lease the calling thread holds on the table already, if it does. */
  private static Optional<TableLease> nestedHandle(TableStorage storage, LeaseHolder holder, Duration timeout, Clock clock) {
    TableLease held = HELD_BY_THIS_THREAD.get().get(storage.location());
    if (held == null || held.closed) {
      return Optional.empty();
    }
    return Optional.of(new TableLease(storage, holder, held.sinceMillis, timeout, clock, -1, held, held.take));
  }

  /**
   * What the head says at {@code now}: held (by whom), or free and the generation to create next;
   * empty when the head was pruned between its listing and its read (a renewal or a release just
   * happened: look again).
   */
  private static Optional<Look> lookOnce(TableStorage storage, LeaseHolder holder, Clock clock) {
    long now = clock.millis();
    Optional<FileEntry> head = head(storage);
    if (head.isEmpty()) {
      return Optional.of(new Look(now, 1, null, null));
    }
    Optional<Lease> current = read(storage, head.get());
    if (current.isEmpty()) {
      return Optional.empty();
    }
    if (!current.get().free(holder, now)) {
      return Optional.of(new Look(now, -1, current.get(), head.get().path()));
    }
    return Optional.of(new Look(now, generationOf(head.get().path()).orElseThrow() + 1, null, null));
  }

  /** Whoever holds the head now, for the message of a take that lost every race. */
  private static Look holderNow(TableStorage storage, Clock clock) {
    Optional<FileEntry> head = head(storage);
    Lease lease = head.flatMap(entry -> read(storage, entry))
        .orElse(new Lease(new LeaseHolder("unknown", "unknown", 0, 0, ""), 0, clock.millis(), false));
    return new Look(clock.millis(), -1, lease, head.map(FileEntry::path).orElse(DIR));
  }

  /**
   * Creates the generation a free look asked for and reads it back: true when it is ours and the
   * head, false when another run won it (or one above it).
   */
  private static boolean claim(TableStorage storage, LeaseHolder holder, Look free, Duration timeout) {
    Lease wanted = new Lease(holder, free.now(), free.now() + timeout.toMillis(), false);
    if (!storage.createIfAbsent(pathOf(free.next()), wanted.encode())) {
      return false;
    }
    // A contender that read a pruned generation can create it again, below the real head. Holding
    // needs our lease to be the head; if it is not, it is an orphan that a later prune removes.
    Optional<FileEntry> after = head(storage);
    // Read back: on a store that ignores the conditional header (s3proxy 2.6.0) the last writer
    // of a generation wins, and this tells the earlier one that it lost.
    return after.isPresent() && after.get().path().equals(pathOf(free.next()))
        && read(storage, after.get()).filter(lease -> lease.holder().equals(holder)).isPresent();
  }

  /** Starts renewing a lease just taken, and says so. */
  private void startHolding() {
    startHeartbeat();
    LOG.info("lance maintenance {}: took the table's lease ({}, generation {})", storage.location(), holder.describe(), generation);
  }

  /**
   * One look at the head: {@code heldBy} (and its file) when another run holds the table, else the
   * generation {@code next} to create, at {@code now}.
   */
  private record Look(long now, long next, Lease heldBy, String heldPath) {
    boolean held() {
      return heldBy != null;
    }
  }

  private record Taken(TableLease lease, Lease heldBy, String heldPath) {}

  /**
   * The owner of the lease in force now: empty when nobody holds the table (the last lease was
   * released, expired, or its holder died on this machine). What the maintenance history tells a
   * running run from one that died by.
   */
  public static Optional<String> currentOwner(TableStorage storage, Clock clock) {
    long now = clock.millis();
    return head(storage).flatMap(entry -> read(storage, entry))
        .filter(lease -> !lease.unreadable() && !lease.free(LeaseHolder.ofOwner(""), now))
        .map(lease -> lease.holder().owner());
  }

  /**
   * Runs {@code work} beside the calling thread's next steps when that thread holds the table's
   * lease, and releases the lease only once the work is done, so that what the work writes
   * is still written under the lease (the maintenance ledger's commit, which on an object store is
   * several round trips in a row that the run's list, decide and sweep need not wait for). Without
   * the lease (a caller outside a run), runs it here and now.
   *
   * @param here the storage the caller works through, for work done here and now
   * @param work given the lease's own storage (open until the release) or {@code here}; never
   *     throws for the store: it logs what it could not do
   */
  public static void beforeRelease(TableStorage here, String name, Consumer<TableStorage> work) {
    holdersWork(here, name, work, lease -> lease.beforeRelease);
  }

  /**
   * Runs {@code work} beside the calling thread's next steps when that thread holds the table's
   * lease, the lease's release among them: {@link #close} sends the release without waiting for the
   * work, and returns only once the work is done too, so that it never outlives the run. For work
   * that must not be lost but need not be done under the lease, because everything it touches was
   * chosen under the lease and no later holder writes it: the prune of ended runs' records, whose
   * listing the run took while it held the lease (docs/ledger.md, section 9, "Pruning"). Without
   * the lease (a caller outside a run), runs it here and now.
   *
   * @param here the storage the caller works through, for work done here and now
   * @param work given the lease's own storage (open until the work is done) or {@code here}; never
   *     throws for the store: it logs what it could not do
   */
  public static void besideRelease(TableStorage here, String name, Consumer<TableStorage> work) {
    holdersWork(here, name, work, lease -> lease.besideRelease);
  }

  /** Starts {@code work} on a thread of its own, in the held lease's {@code queue}; here and now without the lease. */
  private static void holdersWork(TableStorage here, String name, Consumer<TableStorage> work,
      Function<TableLease, List<HoldersWork>> queue) {
    TableLease held = HELD_BY_THIS_THREAD.get().get(here.location());
    if (held == null || held.closed) {
      work.accept(here);
      return;
    }
    queue.apply(held).add(new HoldersWork(name, DaemonThreads.beside(name, () -> {
      // Written under the lease only: a take that another run won writes nothing (acquireBeside).
      if (held.taken()) {
        work.accept(held.storage);
      }
      return null;
    })));
  }

  /** The holder of this lease. */
  public LeaseHolder holder() {
    return outer != null ? outer.holder : holder;
  }

  /**
   * Waits for the take's second step ({@link #acquireBeside}); throws {@link LeaseHeldException}
   * when another run won the lease, before this run wrote anything. Returns at once for a lease
   * taken in one step.
   */
  public void awaitTaken() {
    DaemonThreads.join(take);
  }

  /** Whether the take succeeded, waiting for its second step; never throws. */
  private boolean taken() {
    try {
      take.join();
      return true;
    } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
      return false;
    }
  }

  /**
   * Throws when this run does not hold the lease: another run won its take ({@link #awaitTaken},
   * waited for), or took it over once its holder stalled past the timeout. Stop before writing or
   * deleting.
   */
  public void ensureHeld() {
    awaitTaken();
    TableLease lease = outer != null ? outer : this;
    String lost = lease.lostTo;
    if (lost != null) {
      throw new MaintenanceException("Stopped maintenance of " + storage.location() + ": this run ("
          + lease.holder.describe() + ") lost the table's lease to " + lost
          + " after failing to renew it for " + timeout + "; the rest is left for the next run");
    }
  }

  /**
   * Renews every third of the timeout, and first prunes the generations below the one just taken
   * (the last run's take and release): beside the run's own work, not after its release, where
   * the listing and the delete were two round trips in a row at the end of every run on an object
   * store. Between runs the table keeps the last run's two generations.
   */
  private void startHeartbeat() {
    long periodMillis = Math.max(1, timeout.toMillis() / 3);
    heartbeat = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("lance-lease-heartbeat"));
    long taken = generation;
    heartbeat.execute(() -> pruneQuietly(taken));
    heartbeat.scheduleWithFixedDelay(this::renewQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  private void pruneQuietly(long keep) {
    try {
      prune(keep);
    } catch (RuntimeException e) {
      // Harmless: an older generation never decides anything; the next run prunes it.
      LOG.debug("lance maintenance {}: could not prune old lease generations: {}", storage.location(), e.getMessage());
    }
  }

  private void renewQuietly() {
    try {
      renew();
    } catch (RuntimeException e) {
      // A store hiccup: the next beat tries again, well before the lease runs out.
      LOG.warn("lance maintenance {}: could not renew the table's lease: {}", storage.location(), e.getMessage());
    }
  }

  /** Extends the lease by one timeout from now: one more generation. */
  synchronized void renew() {
    if (closed || lostTo != null) {
      return;
    }
    long now = clock.millis();
    Lease renewed = new Lease(holder, sinceMillis, now + timeout.toMillis(), false);
    if (storage.createIfAbsent(pathOf(generation + 1), renewed.encode())) {
      generation++;
      prune(generation);
      return;
    }
    lostTo = head(storage).flatMap(entry -> read(storage, entry)).map(lease -> lease.holder().describe())
        .orElse("another run");
    LOG.error("lance maintenance {}: {} lost the table's lease to {}; stopping at the next check",
        storage.location(), holder.describe(), lostTo);
  }

  /** Releases the lease (a nested handle leaves it to the outer one). Never throws for the store. */
  @Override
  public void close() {
    if (outer != null) {
      return;
    }
    awaitLogged(beforeRelease, "work under the table's lease");
    boolean held = taken();
    if (heartbeat != null) {
      // No more renewals; a prune under way (or not yet begun, in a run shorter than one request)
      // finishes first, so that the generations below this run's do not pile up.
      heartbeat.shutdown();
      try {
        if (!heartbeat.awaitTermination(30, TimeUnit.SECONDS)) {
          heartbeat.shutdownNow();
        }
      } catch (InterruptedException e) {
        heartbeat.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
    try {
      release(held);
    } finally {
      awaitLogged(besideRelease, "work beside the release of the table's lease");
    }
  }

  /**
   * Waits for each piece of work; one that failed is logged (it logged what it could not do
   * itself), by its name. A work that ran out of heap says so with the heap's size: on a table with
   * a long history the ledger's commit can need more than the run did (docs/ledger.md, section 7),
   * and a bare {@code OutOfMemoryError} did not tell which work or what to change.
   */
  private void awaitLogged(List<HoldersWork> works, String what) {
    for (HoldersWork work : works) {
      try {
        work.done().join();
      } catch (RuntimeException e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        String why = cause instanceof OutOfMemoryError
            ? cause + ": this JVM's heap holds at most " + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + " MB (-Xmx); the run's cleanup does not depend on this work, later runs do more without what it records"
            : String.valueOf(e.getMessage());
        LOG.warn("lance maintenance {}: {} ({}) failed: {}", storage.location(), work.name(), what, why);
      }
    }
  }

  /** A piece of the holder's work started beside the run, by the name its thread has. */
  private record HoldersWork(String name, CompletableFuture<Void> done) {}

  /** Creates the released generation, once; nothing when the lease was lost, or its take failed ({@code held} false). */
  private void release(boolean held) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (takenBy == Thread.currentThread()) {
        HELD_BY_THIS_THREAD.get().remove(storage.location());
      }
      if (lostTo != null || !held) {
        return;
      }
      try {
        Lease released = new Lease(holder, sinceMillis, 0, true);
        if (storage.createIfAbsent(pathOf(generation + 1), released.encode())) {
          // The generations below stay until the next run takes the lease and prunes them.
          LOG.info("lance maintenance {}: released the table's lease", storage.location());
        } else {
          LOG.warn("lance maintenance {}: the table's lease had expired and was taken over before this run released it",
              storage.location());
        }
      } catch (RuntimeException e) {
        // Not released: the lease expires after its timeout, or is taken at once by a run on this machine.
        LOG.warn("lance maintenance {}: could not release the table's lease (it expires by itself): {}",
            storage.location(), e.getMessage());
      }
    }
  }

  /** Deletes the generations below {@code keep}, and staging leftovers of writers that died. */
  private void prune(long keep) {
    long staleBefore = clock.millis() - UNREADABLE_GRACE_MILLIS;
    List<String> old = new ArrayList<>();
    for (Iterator<FileEntry> files = storage.listFiles(DIR, false); files.hasNext(); ) {
      FileEntry file = files.next();
      OptionalLong found = generationOf(file.path());
      boolean staged = fileName(file.path()).startsWith(".staged-") && file.modificationTimeMillis() < staleBefore;
      if ((found.isPresent() && found.getAsLong() < keep) || staged) {
        old.add(file.path());
      }
    }
    int batch = Math.max(1, storage.maxDeleteBatchSize());
    for (int from = 0; from < old.size(); from += batch) {
      List<TableStorage.DeleteFailure> failures = storage.deleteBatch(old.subList(from, Math.min(old.size(), from + batch)));
      // Harmless: an older generation never decides anything; the next prune tries again.
      failures.forEach(f -> LOG.debug("lance maintenance: could not prune {}: {}", f.path(), f.reason()));
    }
  }

  private static Optional<FileEntry> head(TableStorage storage) {
    FileEntry head = null;
    long highest = -1;
    for (Iterator<FileEntry> files = storage.listFiles(DIR, false); files.hasNext(); ) {
      FileEntry file = files.next();
      OptionalLong found = generationOf(file.path());
      if (found.isPresent() && found.getAsLong() > highest) {
        highest = found.getAsLong();
        head = file;
      }
    }
    return Optional.ofNullable(head);
  }

  private static OptionalLong generationOf(String path) {
    return Generations.of(path, PREFIX);
  }

  private static String fileName(String path) {
    return Generations.lastSegment(path);
  }

  static String pathOf(long generation) {
    return DIR + "/" + Generations.fileName(PREFIX, generation);
  }

  /** The lease in a file; empty when the file went away between listing and reading. */
  private static Optional<Lease> read(TableStorage storage, FileEntry file) {
    byte[] content;
    try {
      // Lease files are never rewritten, and a cut one does not parse (no end line): counts as held.
      content = storage.readAsListed(file);
    } catch (StorageException e) {
      if (isMissing(e)) {
        return Optional.empty();
      }
      throw e;
    }
    return Optional.of(Lease.decode(new String(content, StandardCharsets.UTF_8))
        .orElseGet(() -> Lease.unreadable(file.modificationTimeMillis() + UNREADABLE_GRACE_MILLIS)));
  }

  private static boolean isMissing(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.io.FileNotFoundException || cause instanceof java.nio.file.NoSuchFileException) {
        return true;
      }
    }
    return false;
  }

  /**
   * One lease file: its holder, since when the holder has held the table, and until when this
   * generation holds. Written as {@code key=value} lines ending with {@code end}, so that a file cut
   * short by a dying writer never parses.
   */
  record Lease(LeaseHolder holder, long sinceMillis, long expiresAtMillis, boolean released) {
    private static final String END = "end";

    static Lease unreadable(long untilMillis) {
      return new Lease(new LeaseHolder("unknown", "unknown", 0, 0, ""), untilMillis, untilMillis, false);
    }

    boolean unreadable() {
      return holder.owner().equals("unknown") && holder.pid() == 0;
    }

    /** Whether {@code contender} may take the table over this lease at {@code nowMillis}. */
    boolean free(LeaseHolder contender, long nowMillis) {
      return released
          || expiresAtMillis <= nowMillis
          || holder.owner().equals(contender.owner())
          || holder.diedOnThisMachine();
    }

    byte[] encode() {
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put("owner", holder.owner());
      fields.put("host", holder.host());
      fields.put("pid", Long.toString(holder.pid()));
      fields.put("process_start", Long.toString(holder.processStartMillis()));
      fields.put("machine", holder.machine());
      fields.put("since", Long.toString(sinceMillis));
      fields.put("expires", Long.toString(expiresAtMillis));
      fields.put("released", Boolean.toString(released));
      StringBuilder text = new StringBuilder();
      fields.forEach((key, value) -> text.append(key).append('=').append(value.replace('\n', ' ')).append('\n'));
      return text.append(END).append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    static Optional<Lease> decode(String text) {
      if (!text.endsWith("\n" + END + "\n")) {
        return Optional.empty();
      }
      Map<String, String> fields = new HashMap<>();
      for (String line : text.split("\n")) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          fields.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
      try {
        LeaseHolder holder = new LeaseHolder(
            java.util.Objects.requireNonNull(fields.get("owner")), java.util.Objects.requireNonNull(fields.get("host")), Long.parseLong(fields.get("pid")),
            Long.parseLong(fields.get("process_start")), fields.getOrDefault("machine", ""));
        return Optional.of(new Lease(
            holder, Long.parseLong(fields.get("since")), Long.parseLong(fields.get("expires")),
            Boolean.parseBoolean(fields.get("released"))));
      } catch (RuntimeException garbled) {
        return Optional.empty();
      }
    }
  }
}
