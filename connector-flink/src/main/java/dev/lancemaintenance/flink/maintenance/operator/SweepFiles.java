package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.stage.SweepBatch;
import dev.lancemaintenance.cleanup.stage.TokenBucketPacer;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.TaskInfo;

/**
 * Stages {@code sweep} and {@code release manifests} (parallel): deletes files in batches through
 * {@link SweepBatch}. One delete request is in flight per subtask, so the topology caps this operator's parallelism at
 * {@code max_concurrent_deletes}; each subtask paces itself at its share of {@code
 * delete_rate_limit}.
 *
 * <p>A failed subtask is retried by Flink from its (blocking) input: files it already deleted are
 * gone, and {@link SweepBatch} counts a missing file as deleted, while the failed attempt's output
 * is discarded, so each file is counted once.
 *
 * <p>With {@code record_files}, each subtask attempt writes the files it deleted to a part of its
 * own ({@link RecordedFiles}), ended when its input ends.
 */
public final class SweepFiles extends CandidateStage {
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final long deleteRateLimit;
  private final RecordedFiles recordedFiles;
  private final CleanupStage stage;
  private transient RecordedFiles.Part record;
  private transient TableStorage storage;
  private transient SweepBatch sweep;
  private transient List<CandidateFile> buffer;
  private transient CleanupCounters counters;

  /**
   * @param deleteRateLimit files per second across all subtasks of this operator, 0 for unlimited
   * @param recordedFiles where the subtasks record the files they delete, null for nowhere
   * @param stage the stage, which names the parts
   */
  public SweepFiles(TableLocation table, TableStorageFactory storageFactory, long deleteRateLimit, FileReport report,
      RecordedFiles recordedFiles, CleanupStage stage) {
    super(report, stage);
    this.table = table;
    this.storageFactory = storageFactory;
    this.deleteRateLimit = deleteRateLimit;
    this.recordedFiles = recordedFiles;
    this.stage = stage;
  }

  @Override
  public void open() throws Exception {
    super.open();
    int subtasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
    storage = storageFactory.open(table);
    sweep = new SweepBatch(storage, new TokenBucketPacer((double) deleteRateLimit / subtasks));
    buffer = new ArrayList<>();
    counters = CleanupCounters.ZERO;
    TaskInfo task = getRuntimeContext().getTaskInfo();
    record = recordedFiles == null
        ? RecordedFiles.Part.none()
        : recordedFiles.part(storage, stage.name().toLowerCase(Locale.ROOT), task.getIndexOfThisSubtask(), task.getAttemptNumber());
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
    record.finish();
    return counters;
  }

  private void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    CleanupCounters batch = sweep.sweep(buffer, record::add);
    buffer.clear();
    counters = counters.plus(batch);
    published(batch);
  }

  @Override
  public void close() throws Exception {
    if (record != null) {
      record.close();
    }
    if (storage != null) {
      storage.close();
    }
    super.close();
  }
}
