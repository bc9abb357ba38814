package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The last stage for decided files, per subtask: reports each file (when asked) and, when its
 * input ends, emits the subtask's counters once, zero included, so the reductions downstream
 * always see every subtask. Subclasses delete ({@link SweepFiles}) or only count ({@link
 * CountCandidates}, the dry run).
 */
abstract class CandidateStage extends AbstractStreamOperator<RunOutput>
    implements OneInputStreamOperator<CandidateFile, RunOutput>, BoundedOneInput {
  private final FileReport report;
  private final CleanupStage stage;
  private transient Counter filesRemoved;
  private transient Counter bytesFreed;
  private transient Counter failedDeletes;

  CandidateStage(FileReport report, CleanupStage stage) {
    this.report = report;
    this.stage = stage;
  }

  @Override
  public void open() throws Exception {
    super.open();
    MetricGroup metrics = MaintenanceMetrics.ofStage(getMetricGroup(), stage);
    filesRemoved = metrics.counter(MaintenanceMetrics.FILES_REMOVED);
    bytesFreed = metrics.counter(MaintenanceMetrics.BYTES_FREED);
    failedDeletes = metrics.counter(MaintenanceMetrics.FAILED_DELETES);
  }

  /** Publishes what a batch of this subtask removed (in a dry run, counted) to the stage's metrics. */
  final void published(CleanupCounters batch) {
    filesRemoved.inc(batch.filesRemoved());
    bytesFreed.inc(batch.bytesRemoved());
    failedDeletes.inc(batch.failedDeletes());
  }

  @Override
  public final void processElement(StreamRecord<CandidateFile> element) {
    CandidateFile file = element.getValue();
    if (report == FileReport.EMIT) {
      output.collect(new StreamRecord<>(RunOutput.of(file)));
    }
    accept(file);
  }

  @Override
  public final void endInput() {
    output.collect(new StreamRecord<>(RunOutput.of(completeCounters())));
  }

  /** Takes one decided file. */
  abstract void accept(CandidateFile file);

  /** Completes outstanding work and returns the subtask's counters. */
  abstract CleanupCounters completeCounters();
}
