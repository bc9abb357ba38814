package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupProgress;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.ledger.KeySnapshotAnswers;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local engine's list stage: one task per managed directory (or per examined name, for a run
 * that examines names instead of listing) on the run's pool, started with the mark, each putting
 * the names it lists into the spill. On the key snapshot's path, a name whose key the snapshot's
 * answers give {@code KEPT} is settled beside the walk instead of spilled ({@link #list(ListingTask,
 * DatasetRef)} says why that is exact), so the decide stage meets only the names whose decision can
 * still go either way.
 */
final class SpilledListing {
  /** The engine's logger: a listing's lines are the run's. */
  private static final Logger LOG = LoggerFactory.getLogger(LocalCleanupAction.class);
  /** Listed names the key snapshot's answers settle in one task: a few ms each, beside the walk. */
  private static final int SETTLED_PER_BATCH = 8_192;
  /** Listed names counted in the run's progress at once (CleanupProgress#filesListed). */
  private static final int PROGRESS_STEP = 1_024;
  /** Batches of listed names being settled at once; one more is settled by the walk itself. */
  private static final int SETTLING_BATCHES = 4;

  private final TableLocation table;
  /** The walks started ahead of the listing tasks (beside the plan or the mark), which they take over. */
  private final ListingWalks walks;
  private final Spills spills;
  private final RunPool pool;
  private final CleanupProgress progress;
  /** Each listed key's mark when the mark stage decided from the key snapshot; null when it marked. */
  private final Supplier<KeySnapshotAnswers> snapshotAnswers;
  /** The listing tasks, started with the mark. */
  private List<Future<Long>> listing;
  /** The batches of listed names the key snapshot's answers settle beside the walk ({@link #settle}). */
  private final List<Future<Void>> settling = new CopyOnWriteArrayList<>();
  private final Semaphore settlingSlots = new Semaphore(SETTLING_BATCHES);

  SpilledListing(TableLocation table, ListingWalks walks, Spills spills, RunPool pool, CleanupProgress progress,
      Supplier<KeySnapshotAnswers> snapshotAnswers) {
    this.table = table;
    this.walks = walks;
    this.spills = spills;
    this.pool = pool;
    this.progress = progress;
    this.snapshotAnswers = snapshotAnswers;
  }

  /** Starts the listing of the plan's directories unless a listing started already. */
  void startUnlessStarted(List<ListingTask> directories, DatasetRef dataset) {
    if (listing == null) {
      start(directories, directory -> directory, dataset);
    }
  }

  /** Starts one listing task per input, each listing what {@code taskOf} gives for it. */
  <T> void start(List<T> inputs, Function<T, ListingTask> taskOf, DatasetRef dataset) {
    listing = pool.submitAll(inputs, input -> list(taskOf.apply(input), dataset));
  }

  /** Waits for the listing the mark started; the names listed. */
  OptionalLong awaitListed() {
    if (listing == null) {
      throw new IllegalStateException("list before mark: the listing starts with the mark");
    }
    long listed = RunPool.awaitAll(listing, Long::sum, 0L);
    // Every walk ended, so no batch is added any more; the decision needs every batch settled.
    RunPool.awaitAll(settling, (a, b) -> null, null);
    return OptionalLong.of(listed);
  }

  /**
   * Lists one managed directory into the spill. On the key snapshot's path, when the answers
   * exist as the task starts (read once, here: on an object store a task may start before them
   * and then spills every name, {@code LocalCleanupAction}'s mark), a name whose key is answered {@code KEPT} is settled here instead:
   * {@link KeySnapshotAnswers.Listing#keptListed} counts it for the referenced-files gate, as the decide
   * stage would, and the decision of such a file is to keep it and record nothing (a version the
   * run keeps references it: {@link DecideByPath}'s third rule, whatever its kind or age; only
   * files that go or are kept for their age are recorded for a resume). So the decide stage meets
   * exactly the names whose decision can still go either way, and decides each as before.
   */
  private Long list(ListingTask task, DatasetRef dataset) {
    KeySnapshotAnswers settles = snapshotAnswers.get();
    long count = 0;
    List<FileEntry> batch = new ArrayList<>(SETTLED_PER_BATCH);
    for (Iterator<FileEntry> files = filesOf(task); files.hasNext(); ) {
      RunPool.stopIfInterrupted();
      FileEntry file = files.next();
      if (settles == null) {
        spills.addFile(file, dataset);
      } else {
        batch.add(file);
        if (batch.size() == SETTLED_PER_BATCH) {
          settle(batch, settles, dataset);
          batch = new ArrayList<>(SETTLED_PER_BATCH);
        }
      }
      // Counted in steps: the run's shared counter took a locked add per name of every listing
      // task (921,921 on huge-steady); the total is the same once the walk ends.
      if (++count % PROGRESS_STEP == 0) {
        progress.filesListed(PROGRESS_STEP);
      }
    }
    progress.filesListed(count % PROGRESS_STEP);
    if (!batch.isEmpty()) {
      settle(batch, settles, dataset);
    }
    LOG.debug("lance cleanup {} [{}]: {} files under {}/", table, CleanupStage.LIST.label(), count, task.dir());
    return count;
  }

  /**
   * The task's files: those of the walk started ahead of it, beside the plan on an object store or
   * beside the mark on a local disk, which gives the names its task's own walk would give
   * ({@link ListingWalks} says why); for a task no walk was started for, its listing read here.
   */
  private Iterator<FileEntry> filesOf(ListingTask task) {
    return walks.files(task);
  }

  /**
   * Settles a batch of listed names on the pool, beside the walk that goes on listing (a key
   * hashed and looked up per name is most of the cost, and one directory holds most names), or
   * here when {@value #SETTLING_BATCHES} batches are in flight already: so the walk never waits
   * for a task of the pool (no task of the pool waits for another), and the names held in memory
   * are bounded. {@link #awaitListed} awaits every batch before the decision.
   */
  private void settle(List<FileEntry> batch, KeySnapshotAnswers settles, DatasetRef dataset) {
    if (!settlingSlots.tryAcquire()) {
      settleHere(batch, settles, dataset);
      return;
    }
    settling.add(pool.submit(() -> {
      try {
        settleHere(batch, settles, dataset);
        return null;
      } finally {
        settlingSlots.release();
      }
    }));
  }

  /** Spills the names of {@code batch} whose keys are not answered {@code KEPT} (see {@link #list(ListingTask, DatasetRef)}). */
  private void settleHere(List<FileEntry> batch, KeySnapshotAnswers settles, DatasetRef dataset) {
    KeySnapshotAnswers.Listing lookups = settles.listing();
    for (FileEntry file : batch) {
      if (!lookups.keptListed(ReferenceKeys.keyOf(dataset, file.path()))) {
        spills.addFile(file, dataset);
      }
    }
  }
}
