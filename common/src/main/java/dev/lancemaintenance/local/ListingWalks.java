package dev.lancemaintenance.local;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.stage.ListManagedFiles;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The walks of a run's listing tasks started ahead of the tasks, each taken over by the listing
 * task equal to the one it was started for ({@link #files}). A walk starts at one of two points:
 *
 * <ul>
 *   <li><b>Beside the plan, on an object store</b> ({@link #startedBesideThePlan}): the walks of
 *       the dataset's own managed directories ({@code data/}, {@code _transactions/}, {@code
 *       _deletions/}, {@code _indices/}: {@link CleanupPlanner#walksKnownBeforeThePlan}), whose
 *       first page and key ranges beside it are round trips that need nothing the plan finds. Each
 *       walk asks for its first page and stops there (a key-range listing has its ranges' first
 *       pages under way by then); its task reads on from there.
 *   <li><b>Beside the mark, on a local disk</b> ({@link #startBesideTheMark}), in {@code
 *       incremental} mode: the walk of each directory of the plan walked on the store ({@link
 *       ListManagedFiles#walksTheStore}), whose listing task starts only once the key snapshot's
 *       answers exist, as the settling of the names needs them, while the walk needs nothing from
 *       the mark. Each walks into a {@link BufferedWalk}, bounded ({@link #DEFAULT_BOUND_BYTES} by
 *       default): above the bound it goes at its task's pace.
 * </ul>
 *
 * <p>Exact: a walk reads only its task's managed directory, through the same {@link
 * ListManagedFiles} call as the task's own walk, and decides nothing; what it lists goes to the
 * decision only through the plan's own listing task equal to it, after the plan fixed its tasks,
 * which gives every name the walk found once, in the walk's order, with the attributes the walk
 * read, and throws the walk's failure where the walk failed (so the listing fails, and the run
 * before its decision and any delete). A plan that lists otherwise (an S3 Inventory report, a
 * resumed dead run's decided parts, a directory the plan walked already) holds no equal task, and a
 * walk no task took is dropped unread. A walk started ahead is a walk started a moment earlier,
 * which the listing always allowed: the plan's listing of the versions precedes it, so a file
 * written after the walk passed its directory belongs to no version the run lists, is not listed,
 * and so is never deleted, as a file written just after the walk taken with the mark
 * (docs/cleanup-semantics.md, section 20, "The other directories walked beside the plan", and
 * section 21, "The walk ahead of the answers").
 *
 * <p>Nothing waits in a circle: a walk runs on a daemon thread outside the run's pool, so a walker
 * waiting for room never holds a thread the mark or the settling needs, and a task (on the pool)
 * waits only for its walk, which never waits for the pool. {@link #close}, after the pool stopped
 * (so no task is left reading), ends every walk started: it waits for the first page of each walk
 * beside the plan, so that none is left asking through a storage that closes (the failure of one no
 * task took is no one's: nothing reads what it listed), and ends each walker beside the mark (one
 * waiting for room is interrupted) and waits for it.
 */
final class ListingWalks implements AutoCloseable {
  /**
   * The buffer of one directory's walk beside the mark, 32 MiB: the 717,916 names of {@code
   * huge-steady}'s {@code data/} would take 38.6 MB, so the first ~620,000 wait in the buffer and
   * the walk waits for the rest until the answers exist (by then its task takes them). Only a
   * directory that large fills it: the others hold their whole listing in a fraction of it.
   */
  static final long DEFAULT_BOUND_BYTES = 32L << 20;

  /** A walk started ahead of its task: how the task takes it over, and how the run ends it. */
  private record Started(Supplier<Iterator<FileEntry>> takeOver, Runnable end) {}

  private final TableStorage storage;
  /** The walks started that no task took over yet, by the task each was started for. */
  private final Map<ListingTask, Started> untaken = new ConcurrentHashMap<>();
  /** Every walk started, taken over or not: the run ends each at {@link #close}. */
  private final List<Started> started = new ArrayList<>();

  private ListingWalks(TableStorage storage) {
    this.storage = storage;
  }

  /** No walk started yet: a task walks when it starts, unless a walk is started for it later. */
  static ListingWalks noneStarted(TableStorage storage) {
    return new ListingWalks(storage);
  }

  /** The walks of {@code dataset}'s directories known before the plan, each started for its first page. */
  static ListingWalks startedBesideThePlan(TableStorage storage, DatasetRef dataset) {
    return startedBesideThePlan(storage, dataset, CompletableFuture.completedFuture(true));
  }

  /**
   * As {@link #startedBesideThePlan(TableStorage, DatasetRef)}, once {@code when} says the run walks
   * them (a run that may examine names instead learns it beside the plan, after the store's horizon:
   * {@link dev.lancemaintenance.ledger.ListingChoice}); when it says no, or fails, none is walked
   * ahead and a task that runs after all walks when it starts.
   */
  static ListingWalks startedBesideThePlan(TableStorage storage, DatasetRef dataset, CompletableFuture<Boolean> when) {
    ListingWalks walks = new ListingWalks(storage);
    for (ListingTask task : CleanupPlanner.walksKnownBeforeThePlan(dataset)) {
      walks.start(task, () -> {
        CompletableFuture<Iterator<FileEntry>> walk = when.exceptionally(failed -> false).thenCompose(walksNow -> walksNow
            ? DaemonThreads.beside("lance-list-beside-plan", () -> {
                Iterator<FileEntry> files = ListManagedFiles.filesDeferringAttributes(storage, task);
                files.hasNext(); // the first page, and a key-range listing's ranges under way
                return files;
              })
            : CompletableFuture.completedFuture(null));
        return new Started(() -> Optional.ofNullable(DaemonThreads.join(walk))
            .orElseGet(() -> ListManagedFiles.filesDeferringAttributes(storage, task)),
            () -> walk.exceptionally(failed -> null).join());
      });
    }
    return walks;
  }

  /** Starts a walk of each of {@code tasks}' directories walked on the store into a buffer of {@code boundBytes}. */
  void startBesideTheMark(List<ListingTask> tasks, long boundBytes) {
    for (ListingTask task : tasks) {
      if (ListManagedFiles.walksTheStore(task)) {
        start(task, () -> {
          BufferedWalk walk = BufferedWalk.start("lance-cleanup-walk-" + task.dir(),
              () -> ListManagedFiles.filesDeferringAttributes(storage, task), boundBytes,
              (int) Math.min(BufferedWalk.CHUNK_BYTES, Math.max(1, boundBytes)));
          return new Started(walk::files, walk::close);
        });
      }
    }
  }

  /** Starts a walk for {@code task} unless one was started for an equal task that none took yet. */
  private synchronized void start(ListingTask task, Supplier<Started> walk) {
    untaken.computeIfAbsent(task, unstarted -> {
      Started begun = walk.get();
      started.add(begun);
      return begun;
    });
  }

  /**
   * The files of {@code task}: its walk started ahead when there is one, taken over once (its
   * failure thrown here or while reading on, as the walk's own would be), else its listing read now.
   * Only a task that walks the store ever has a walk started ahead, so the others skip the lookup.
   */
  Iterator<FileEntry> files(ListingTask task) {
    Started walk = ListManagedFiles.walksTheStore(task) ? untaken.remove(task) : null;
    return walk != null ? walk.takeOver().get() : ListManagedFiles.filesDeferringAttributes(storage, task);
  }

  /** Ends every walk started, taken over or not (the class comment says how); what none took is dropped. */
  @Override
  public synchronized void close() {
    started.forEach(walk -> walk.end().run());
    started.clear();
    untaken.clear();
  }
}
