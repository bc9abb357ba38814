package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.ledger.KeySnapshotMark;
import dev.lancemaintenance.ledger.LedgerReadAhead;
import dev.lancemaintenance.ledger.ListingChoice;
import dev.lancemaintenance.ledger.ListingSkip;
import dev.lancemaintenance.ledger.ListingSkipVerification;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local engine's part of a run that may examine names instead of listing ({@link ListingSkip},
 * {@code listing => 'auto'} on an object store; docs/ledger.md, section 11): on the key snapshot's
 * path the run examines the names that can be candidates when the record beside the ledger allows
 * it, and their names go where a listing's go; a verify run lists all the same and, before the
 * first delete, compares its decision with what a run without a listing would delete; and after a
 * complete sweep every such run leaves the record the next run examines names with.
 */
final class ExamineInsteadOfListing {
  /** The engine's logger: these lines are the run's. */
  private static final Logger LOG = LoggerFactory.getLogger(LocalCleanupAction.class);
  /**
   * Names a task examines in a run that does not list, one request each (a listing of the name's
   * prefix): one, so that the examined names of a daily run are read in one round trip on the
   * pool's threads (two in a task were two in a row).
   */
  private static final int EXAMINED_PER_TASK = 1;

  private final TableLocation table;
  private final TableStorage storage;
  private final LedgerReadAhead ledger;
  /**
   * Whether the run lists or may examine names instead ({@link ListingSkip}), chosen beside the
   * plan, with the store time the run's listing vouches for, taken before it (empty where the
   * store cannot tell or the run asked none).
   */
  private final ListingChoice choice;
  /** The {@code PUT} margin of the names examined ({@link ListingSkip#PUT_MARGIN} unless the caller gave one). */
  private final Duration putMargin;
  private final RunPool pool;
  /** What the run examined instead of listing; null when it listed. */
  private volatile ListingSkip.Decision examined;
  /**
   * A verify run's key snapshot answers, once found equal to its marks ({@code MarkTasks}); null
   * on any other run, or when the snapshot could not answer.
   */
  private volatile KeySnapshotMark.Outcome verifiedSnapshot;
  /**
   * A verify run's reads of the names a run without a listing would examine, each on the pool
   * beside the listing ({@link ListingSkipVerification}); null when there is nothing to compare.
   */
  private List<Future<List<FileEntry>>> examinedToVerify;
  /**
   * The files of a candidate kind the decision kept though no version the run keeps references
   * them: what the next run examines when it does not list ({@link ListingSkip#leaveRecord}).
   */
  private final Queue<FileEntry> keptUnreferenced = new ConcurrentLinkedQueue<>();

  ExamineInsteadOfListing(TableLocation table, TableStorage storage, LedgerReadAhead ledger, ListingChoice choice,
      Duration putMargin, RunPool pool) {
    this.table = table;
    this.storage = storage;
    this.ledger = ledger;
    this.choice = choice;
    this.putMargin = putMargin;
    this.pool = pool;
  }

  /**
   * Examines the names that can be candidates instead of listing, when the record beside the
   * ledger allows it ({@link ListingSkip#decide}): each examined prefix is read on the pool by a task
   * of {@code listing}, and its names go where a listing's go (settled when answered {@code KEPT},
   * else spilled and decided). Else leaves the listing to start as on any run of the key snapshot's
   * path, and says why.
   */
  void examineOrList(CleanupPlan plan, KeySnapshotMark.Outcome outcome, SpilledListing listing) {
    ListingSkip.Decision decision = decide(plan, outcome);
    if (!decision.skipsTheListing()) {
      LOG.info("lance cleanup {} [{}]: listed: {}", table, CleanupStage.LIST.label(), decision.listsBecause().get());
      return;
    }
    examined = decision;
    DatasetRef dataset = plan.facts().dataset();
    List<List<ListingSkip.Examined>> chunks = new ArrayList<>();
    for (int from = 0; from < decision.examined().size(); from += EXAMINED_PER_TASK) {
      chunks.add(decision.examined().subList(from, Math.min(decision.examined().size(), from + EXAMINED_PER_TASK)));
    }
    listing.start(chunks, chunk -> ListingTask.listedByPlan("(examined)", filesOf(chunk, dataset)), dataset);
  }

  /** Whether the run examined names instead of listing. */
  boolean examinedNames() {
    return examined != null;
  }

  /** The names of {@code chunk} as a listing of their prefixes shows them now. */
  private List<FileEntry> filesOf(List<ListingSkip.Examined> chunk, DatasetRef dataset) {
    List<FileEntry> files = new ArrayList<>();
    for (ListingSkip.Examined name : chunk) {
      RunPool.stopIfInterrupted();
      files.addAll(name.filesNow(storage, dataset));
    }
    return files;
  }

  private ListingSkip.Decision decide(CleanupPlan plan, KeySnapshotMark.Outcome outcome) {
    return ListingSkip.decide(storage, plan, outcome, ledger,
        PoolDecoder.withEarlyReads(pool, storage, plan, choice.expiringManifests()), putMargin);
  }

  /**
   * A verify run's key snapshot answers, found equal to its marks; with {@code compares}, the run
   * reads the names a run without a listing would examine ({@link #readTheNamesToExamine}).
   */
  void snapshotVerified(CleanupPlan plan, KeySnapshotMark.Outcome verified, boolean compares) {
    verifiedSnapshot = verified;
    if (compares) {
      readTheNamesToExamine(plan, verified);
    }
  }

  /**
   * A verify run that could have examined names instead of listing ({@link ListingSkip#decide},
   * every condition checked as on a run without verify): reads those names, one prefix a task on
   * the pool beside the listing, as that run reads them; the decision then compares
   * ({@link #verifyAgainstTheNamesExamined}). A run that would list anyway has nothing to compare.
   */
  private void readTheNamesToExamine(CleanupPlan plan, KeySnapshotMark.Outcome outcome) {
    ListingSkip.Decision decision = decide(plan, outcome);
    if (!decision.skipsTheListing()) {
      LOG.info("lance cleanup {} [{}]: verify: nothing to compare with the listing, a run without verify would list too: {}",
          table, CleanupStage.LIST.label(), decision.listsBecause().get());
      return;
    }
    DatasetRef dataset = plan.facts().dataset();
    examinedToVerify = pool.submitAll(decision.examined(), name -> name.filesNow(storage, dataset));
  }

  /**
   * A verify run's other side, the names it read decided with {@code context}, for the decision to
   * tell as it goes which were listed; null when there is nothing to compare.
   */
  ListingSkipVerification verification(DecisionContext context) {
    return examinedToVerify == null ? null : ListingSkipVerification.of(table.toString(), context,
        verifiedSnapshot.answers(), RunPool.awaitAll(examinedToVerify, RunPool::concat, List.of()),
        storage::withAttributes);
  }

  /**
   * Before the first delete, the run without a listing's deletes against the listing's decided
   * ones (each partition's, of {@code spills}): refuses the run on any difference ({@link
   * ListingSkipVerification}). Only on a verify run that read the names to examine.
   */
  void verifyAgainstTheNamesExamined(ListingSkipVerification verification, Spills spills,
      List<List<Integer>> taskPartitions) {
    taskPartitions.forEach(partitions -> partitions.forEach(partition ->
        spills.decided(partition).forEach(verification::listingDeletes)));
    verification.requireSame();
    LOG.info("lance cleanup {} [{}]: verify: the run without a listing would delete what the listing deletes ({})",
        table, CleanupStage.DECIDE.label(), verification.describe());
  }

  /** A file of a candidate kind the decision kept though no version the run keeps references it. */
  void keptUnreferenced(FileEntry file) {
    keptUnreferenced.add(file);
  }

  /**
   * After a complete sweep (the release follows only one), the record the next run needs to examine
   * names instead of listing: on the key snapshot's path ({@code markedFromSnapshot}, null when the
   * run marked), with the horizon this run's listing vouches for, or the one it examined names with
   * (a run that does not list cannot move it).
   */
  void leaveUnlistedRecord(KeySnapshotMark.Outcome markedFromSnapshot, CleanupMode mode) {
    // A verify run listed, from the same snapshot's answers as a run on its path (found equal to its marks).
    KeySnapshotMark.Outcome outcome = markedFromSnapshot != null ? markedFromSnapshot : verifiedSnapshot;
    if (outcome == null) {
      return;
    }
    ListingSkip.Decision skipped = examined;
    OptionalLong horizon = skipped != null ? OptionalLong.of(skipped.horizonMillis()) : choice.horizon();
    if (horizon.isPresent()) {
      ListingSkip.leaveRecord(storage, mode, outcome, horizon.getAsLong(), keptUnreferenced);
    }
  }
}
