package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
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

  CandidateStage(FileReport report) {
    this.report = report;
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
