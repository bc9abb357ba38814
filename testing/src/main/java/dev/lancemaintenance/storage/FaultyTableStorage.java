package dev.lancemaintenance.storage;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Breaks a real store on purpose: a {@link SimulatedCrash} (the process dying) on a chosen listing
 * or delete, delete failures the store reports for chosen paths, and hooks that run once before
 * the first listing or the first delete (a concurrent writer committing mid-run). One {@link
 * Faults} is shared by all the storages a factory opens during a run, and keeps the counts.
 */
public final class FaultyTableStorage extends ForwardingTableStorage {
  private final Faults faults;

  public FaultyTableStorage(TableStorage delegate, Faults faults) {
    super(delegate);
    this.faults = faults;
  }

  /** A factory that opens local Hadoop storage broken as {@code faults} says. */
  public static TableStorageFactory factory(Faults faults) {
    return location -> new FaultyTableStorage(new HadoopTableStorage(location, StorageConf.defaults()), faults);
  }

  // The table's lease files pass through unbroken and uncounted: the faults model the cleanup's
  // own requests, and the hooks' "first listing" and "first delete" are the cleanup's.

  @Override
  public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
    if (TableLease.isLeaseFile(dir)) {
      return super.listFiles(dir, recursive);
    }
    faults.beforeListing(dir);
    return super.listFiles(dir, recursive);
  }

  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    if (paths.stream().allMatch(TableLease::isLeaseFile)) {
      return super.deleteBatch(paths);
    }
    faults.beforeDelete(paths);
    List<String> attempted = new ArrayList<>();
    List<DeleteFailure> failures = new ArrayList<>();
    for (String path : paths) {
      if (faults.failingDeletes.test(path)) {
        failures.add(new DeleteFailure(path, "injected failure: access denied"));
      } else {
        attempted.add(path);
      }
    }
    if (!attempted.isEmpty()) {
      failures.addAll(super.deleteBatch(attempted));
    }
    faults.deletedFiles.addAndGet(attempted.size());
    return failures;
  }

  /** The process dying at the worst moment; never caught by the engine as a delete failure. */
  public static final class SimulatedCrash extends RuntimeException {
    SimulatedCrash(String message) {
      super(message);
    }
  }

  /** What to break, set up fluently before the run; thread-safe during it. */
  public static final class Faults {
    private final AtomicInteger deletedFiles = new AtomicInteger();
    private final AtomicBoolean listingHookRan = new AtomicBoolean();
    private final AtomicBoolean deleteHookRan = new AtomicBoolean();
    private int crashAfterDeletedFiles = Integer.MAX_VALUE;
    private Predicate<String> crashOnDeleteOf = path -> false;
    private Predicate<String> failingDeletes = path -> false;
    private Predicate<String> crashOnListingOf = dir -> false;
    private Runnable beforeFirstListing = () -> {};
    private Runnable beforeFirstDelete = () -> {};
    private long deleteDelayMillis;

    /** Crashes on the first delete request once {@code files} files have been deleted. */
    public Faults crashAfterDeleting(int files) {
      this.crashAfterDeletedFiles = files;
      return this;
    }

    /** Crashes on the first delete request that contains a matching path. */
    public Faults crashOnDeleteOf(Predicate<String> paths) {
      this.crashOnDeleteOf = paths;
      return this;
    }

    /** The store refuses to delete matching paths (reported as failures, not thrown), every time. */
    public Faults failDeletesOf(Predicate<String> paths) {
      this.failingDeletes = paths;
      return this;
    }

    /** Crashes when the run lists a directory that matches. */
    public Faults crashOnListingOf(Predicate<String> dirs) {
      this.crashOnListingOf = dirs;
      return this;
    }

    /** Runs {@code hook} once, before the first listing of the run (after plan and mark). */
    public Faults beforeFirstListing(Runnable hook) {
      this.beforeFirstListing = hook;
      return this;
    }

    /** Runs {@code hook} once, before the first delete of the run (after listing). */
    public Faults beforeFirstDelete(Runnable hook) {
      this.beforeFirstDelete = hook;
      return this;
    }

    /** Every delete request takes this long first, as on a slow object store. */
    public Faults delayEachDelete(java.time.Duration delay) {
      this.deleteDelayMillis = delay.toMillis();
      return this;
    }

    /** Files deleted so far through faulty storages sharing these faults. */
    public int deletedFiles() {
      return deletedFiles.get();
    }

    private void beforeListing(String dir) {
      runOnce(listingHookRan, beforeFirstListing);
      if (crashOnListingOf.test(dir)) {
        throw new SimulatedCrash("crash while listing " + dir + "/");
      }
    }

    private void beforeDelete(List<String> paths) {
      runOnce(deleteHookRan, beforeFirstDelete);
      if (deleteDelayMillis > 0) {
        try {
          Thread.sleep(deleteDelayMillis);
        } catch (InterruptedException e) {
          // A slow store does not stop a request in flight; keep the flag for the caller to see.
          Thread.currentThread().interrupt();
        }
      }
      if (deletedFiles.get() >= crashAfterDeletedFiles) {
        throw new SimulatedCrash("crash after " + deletedFiles.get() + " deleted files");
      }
      for (String path : paths) {
        if (crashOnDeleteOf.test(path)) {
          throw new SimulatedCrash("crash before deleting " + path);
        }
      }
    }

    /** Hooks run under a lock so that parallel tasks wait until the hook's write is done. */
    private synchronized void runOnce(AtomicBoolean ran, Runnable hook) {
      if (ran.compareAndSet(false, true)) {
        hook.run();
      }
    }
  }
}
