package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.stage.SweepBatch;
import dev.lancemaintenance.cleanup.stage.TokenBucketPacer;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Stages {@code sweep} and {@code release manifests} (parallel): deletes files in batches through
 * {@link SweepBatch}. One delete request is in flight per subtask, so the topology caps this operator's parallelism at
 * {@code max_concurrent_deletes}; each subtask paces itself at its share of {@code
 * delete_rate_limit}.
 *
 * <p>A failed subtask is retried by Flink from its (blocking) input: files it already deleted are
 * gone, and {@link SweepBatch} counts a missing file as deleted, while the failed attempt's output
 * is discarded, so each file is counted once.
 */
public final class SweepFiles extends CandidateStage {
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final long deleteRateLimit;
  private transient TableStorage storage;
  private transient SweepBatch sweep;
  private transient List<CandidateFile> buffer;
  private transient CleanupCounters counters;

  /**
   * @param deleteRateLimit files per second across all subtasks of this operator, 0 for unlimited
   */
  public SweepFiles(
      TableLocation table, TableStorageFactory storageFactory, long deleteRateLimit, FileReport report, CleanupStage stage) {
    super(report, stage);
    this.table = table;
    this.storageFactory = storageFactory;
    this.deleteRateLimit = deleteRateLimit;
  }

  @Override
  public void open() throws Exception {
    super.open();
    int subtasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
    storage = storageFactory.open(table);
    sweep = new SweepBatch(storage, new TokenBucketPacer((double) deleteRateLimit / subtasks));
    buffer = new ArrayList<>();
    counters = CleanupCounters.ZERO;
  }

  @Override
  void accept(CandidateFile file) {
    buffer.add(file);
    if (buffer.size() >= SweepBatch.FILES_PER_SWEEP) {
      flush();
    }
  }

  @Override
  CleanupCounters completeCounters() {
    flush();
    return counters;
  }

  private void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    CleanupCounters batch = sweep.sweep(buffer);
    buffer.clear();
    counters = counters.plus(batch);
    published(batch);
  }

  @Override
  public void close() throws Exception {
    if (storage != null) {
      storage.close();
    }
    super.close();
  }
}
