package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestsReadEarly;
import dev.lancemaintenance.ledger.LedgerReadAhead;
import dev.lancemaintenance.ledger.ListingChoice;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.MarkTasks;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.storage.TableStorage;
import java.util.List;

/** The ledger's decoding on the run's pool. */
final class PoolDecoder implements MarkTasks.Decoder {
  private final RunPool pool;
  private final TableStorage storage;
  private final CleanupPlan plan;
  /** The reads begun as the plan listed that stand for the manifests of a run decoded on this thread. */
  private final ManifestsReadEarly alone;
  /** Those that stand for the manifests of runs decoded side by side on the pool. */
  private final ManifestsReadEarly sideBySide;

  private PoolDecoder(RunPool pool, TableStorage storage, CleanupPlan plan, ManifestsReadEarly alone,
      ManifestsReadEarly sideBySide) {
    this.pool = pool;
    this.storage = storage;
    this.plan = plan;
    this.alone = alone;
    this.sideBySide = sideBySide;
  }

  /** Decodes a daily run's new manifests with their early reads ({@link LedgerReadAhead#newManifests}). */
  static PoolDecoder ofNewManifests(RunPool pool, TableStorage storage, CleanupPlan plan, LedgerReadAhead ledger) {
    return new PoolDecoder(pool, storage, plan, ledger.newManifests(), ManifestsReadEarly.none());
  }

  /** Decodes with {@code early}'s reads, alone or side by side (the expiring versions' manifests, {@link ListingChoice}). */
  static PoolDecoder withEarlyReads(RunPool pool, TableStorage storage, CleanupPlan plan, ManifestsReadEarly early) {
    return new PoolDecoder(pool, storage, plan, early, early);
  }

  @Override
  public List<RunSummary> summarise(List<ManifestRun> runs) {
    // One summariser per task: its reference scanner caches what it decoded and is not shared.
    DatasetRef dataset = plan.facts().dataset();
    if (runs.size() == 1) {
      // A daily run's few new manifests: on this thread, which would only wait for them, not
      // queued behind the listing tasks the mark started on the pool (the marks derived from
      // the ledger wait for this summary; the listing is needed only by the decision). Those the
      // run began reading as the plan listed them are taken, not read again (ManifestsReadEarly).
      return List.of(new VersionSummaries(storage, dataset, alone).summarise(runs.get(0)));
    }
    return pool.runAll(runs, run -> List.of(new VersionSummaries(storage, dataset, sideBySide).summarise(run)),
        RunPool::concat, List.of());
  }

  @Override
  public List<MarkResult> markInFull(List<MarkTask> tasks) {
    return pool.runAll(tasks, task -> List.of(task.mark(storage, plan.facts())), RunPool::concat, List.of());
  }
}
