package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stages {@code sweep} and {@code release manifests} ({@link
 * dev.lancemaintenance.cleanup.engine.CleanupStage}): deletes one batch of files and counts what went.
 *
 * <p>Files that fail are retried a few times with the pacer's backoff (stores throttle bulk
 * deletes); what still fails is counted in {@code failed_deletes} and logged once with its path, and
 * the run then keeps its expired manifests so that the next run sees those files as verified again.
 * A file already gone counts as deleted. Every deleted file gets one line on the audit logger.
 */
public final class SweepBatch {
  /** Per-file audit lines: action, kind, reason, path. Route or silence it in the logging config. */
  public static final Logger AUDIT = LoggerFactory.getLogger("dev.lancemaintenance.audit");

  /**
   * Decided files an engine's sweep task gathers before it hands them to {@link #sweep} (which cuts
   * them into the store's delete requests): the one batch size of every engine, large enough to fill
   * an object store's bulk delete, small enough that a task holds no more than a thousand paths.
   */
  public static final int FILES_PER_SWEEP = 1000;

  private static final Logger LOG = LoggerFactory.getLogger(SweepBatch.class);
  static final int MAX_ATTEMPTS = 3;

  private final TableStorage storage;
  private final DeletePacer pacer;

  public SweepBatch(TableStorage storage, DeletePacer pacer) {
    this.storage = storage;
    this.pacer = pacer;
  }

  /** Deletes {@code files} (any number; split into the store's batch size) and counts the outcome. */
  public CleanupCounters sweep(List<CandidateFile> files) {
    return sweep(files, file -> {});
  }

  /** As {@link #sweep(List)}, telling {@code deleted} of each file once it is gone (not of those that failed). */
  public CleanupCounters sweep(List<CandidateFile> files, Consumer<CandidateFile> deleted) {
    CleanupCounters counters = CleanupCounters.ZERO;
    int batchSize = storage.maxDeleteBatchSize();
    for (int start = 0; start < files.size(); start += batchSize) {
      counters = counters.plus(sweepOneBatch(files.subList(start, Math.min(files.size(), start + batchSize)), deleted));
    }
    return counters;
  }

  private CleanupCounters sweepOneBatch(List<CandidateFile> batch, Consumer<CandidateFile> deleted) {
    Map<String, CandidateFile> pending = new HashMap<>();
    batch.forEach(file -> pending.put(file.path(), file));
    Map<String, String> lastFailure = new HashMap<>();
    for (int attempt = 1; attempt <= MAX_ATTEMPTS && !pending.isEmpty(); attempt++) {
      if (attempt > 1) {
        pacer.backoff(attempt - 1);
      }
      pacer.acquire(pending.size());
      List<String> paths = new ArrayList<>(pending.keySet());
      lastFailure.clear();
      for (var failure : storage.deleteBatch(paths)) {
        lastFailure.put(failure.path(), failure.reason());
      }
      pending.keySet().retainAll(lastFailure.keySet());
    }
    CleanupCounters counters = CleanupCounters.ZERO;
    for (CandidateFile file : batch) {
      if (pending.containsKey(file.path())) {
        LOG.warn("Cannot delete {} of {}: {}", file.path(), storage.location(), lastFailure.get(file.path()));
        counters = counters.failed(1);
      } else {
        AUDIT.info("delete {} {} {}", file.kind(), file.reason().sqlName(), file.path());
        counters = counters.record(file);
        deleted.accept(file);
      }
    }
    return counters;
  }
}
