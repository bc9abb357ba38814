package dev.lancemaintenance.local;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.stage.ListManagedFiles;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableStorage;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The walks of a dataset's own managed directories ({@code data/}, {@code _transactions/}, {@code
 * _deletions/}, {@code _indices/}: {@link CleanupPlanner#walksKnownBeforeThePlan}), started beside
 * the plan on an object store, where each walk's first page and its key ranges beside it are round
 * trips that need nothing the plan finds. Each walk asks for its first page and stops there
 * (a key-range listing has its ranges' first pages under way by then); the listing task of the
 * plan equal to a walk's task takes the walk over and reads on from there ({@link #files}).
 *
 * <p>Exact: a walk reads only a managed directory and decides nothing, and what it lists goes to
 * the decision only through the plan's own listing task for that directory, after the plan fixed
 * its tasks: a plan that lists otherwise (an S3 Inventory report, a resumed dead run's decided
 * parts) holds no equal task, and its walks are dropped unread. A file written after the walk's
 * pages is not listed, so never deleted, as a file written after the walk taken with the mark (the
 * listing always ran while writers may commit); docs/cleanup-semantics.md, section 20, "The other
 * directories walked beside the plan".
 */
final class WalksBesideThePlan implements AutoCloseable {
  private final TableStorage storage;
  private final Map<ListingTask, CompletableFuture<Iterator<FileEntry>>> started = new ConcurrentHashMap<>();

  private WalksBesideThePlan(TableStorage storage) {
    this.storage = storage;
  }

  /** No walk started: every listing task walks when the plan's listing starts. */
  static WalksBesideThePlan none(TableStorage storage) {
    return new WalksBesideThePlan(storage);
  }

  /** Starts the walk of each of {@code dataset}'s directories known before the plan. */
  static WalksBesideThePlan start(TableStorage storage, DatasetRef dataset) {
    WalksBesideThePlan walks = new WalksBesideThePlan(storage);
    List<ListingTask> tasks = CleanupPlanner.walksKnownBeforeThePlan(dataset);
    for (ListingTask task : tasks) {
      walks.started.put(task, DaemonThreads.beside("lance-list-beside-plan", () -> {
        Iterator<FileEntry> files = ListManagedFiles.filesDeferringAttributes(storage, task);
        files.hasNext(); // the first page, and a key-range listing's ranges under way
        return files;
      }));
    }
    return walks;
  }

  /**
   * The files of {@code task}: its walk started beside the plan when there is one (taken over once,
   * its failure thrown here, as the walk's own would be), else a walk started now.
   */
  Iterator<FileEntry> files(ListingTask task) {
    CompletableFuture<Iterator<FileEntry>> walk = started.remove(task);
    return walk != null ? DaemonThreads.join(walk) : ListManagedFiles.filesDeferringAttributes(storage, task);
  }

  /**
   * Waits for the first pages of the walks no task took over, so that none is left asking through
   * a storage that closes; their failures are no one's (nothing reads what they listed).
   */
  @Override
  public void close() {
    started.values().forEach(walk -> walk.exceptionally(failed -> null).join());
    started.clear();
  }
}
