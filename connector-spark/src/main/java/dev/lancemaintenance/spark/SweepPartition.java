package dev.lancemaintenance.spark;

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
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;

/**
 * Stages {@code sweep} and {@code release manifests} on an executor: deletes the partition's files
 * in batches through {@link SweepBatch} and returns the partition's counters as its only record.
 *
 * <p>Counters travel as the task's result, not through accumulators: Spark keeps the result of the
 * one successful attempt of a task, so a task that dies half way and is retried is counted once.
 * The retry deletes the same files again; those its failed attempt already removed are gone, which
 * the store reports as success, so they are still counted, with the size the listing saw.
 *
 * <p>Each task paces itself at its share of the run's delete rate; the engine runs at most {@code
 * max_concurrent_deletes} sweep tasks, so the shares add up to the global limit.
 *
 * <p>With {@code record_files}, each task attempt writes the files it deleted to a part of its own
 * ({@link RecordedFiles}), ended only when its sweep returned.
 */
final class SweepPartition implements FlatMapFunction<Iterator<CandidateFile>, CleanupCounters> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<TableStorageFactory> storageFactory;
  private final TableLocation table;
  private final double filesPerSecondPerTask;
  private final RecordedFiles recordedFiles;
  private final CleanupStage stage;

  /**
   * @param filesPerSecondPerTask this task's share of the delete rate, 0 for unlimited
   * @param recordedFiles where the tasks record the files they delete, null for nowhere
   * @param stage the stage, which names the parts
   */
  SweepPartition(Broadcast<TableStorageFactory> storageFactory, TableLocation table, double filesPerSecondPerTask,
      RecordedFiles recordedFiles, CleanupStage stage) {
    this.storageFactory = storageFactory;
    this.table = table;
    this.filesPerSecondPerTask = filesPerSecondPerTask;
    this.recordedFiles = recordedFiles;
    this.stage = stage;
  }

  @Override
  public Iterator<CleanupCounters> call(Iterator<CandidateFile> files) {
    CleanupCounters counters = CleanupCounters.ZERO;
    if (!files.hasNext()) {
      return List.of(counters).iterator();
    }
    try (TableStorage storage = storageFactory.value().open(table);
        RecordedFiles.Part record = part(storage)) {
      SweepBatch sweep = new SweepBatch(storage, new TokenBucketPacer(filesPerSecondPerTask));
      List<CandidateFile> buffer = new ArrayList<>(SweepBatch.FILES_PER_SWEEP);
      while (files.hasNext()) {
        buffer.add(files.next());
        if (buffer.size() == SweepBatch.FILES_PER_SWEEP || !files.hasNext()) {
          counters = counters.plus(sweep.sweep(buffer, record::add));
          buffer.clear();
        }
      }
      record.finish();
    }
    return List.of(counters).iterator();
  }

  /** This task attempt's part, or one that records nothing. */
  private RecordedFiles.Part part(TableStorage storage) {
    if (recordedFiles == null) {
      return RecordedFiles.Part.none();
    }
    TaskContext task = TaskContext.get();
    return recordedFiles.part(storage, stage.name().toLowerCase(Locale.ROOT), task.partitionId(), task.attemptNumber());
  }
}
