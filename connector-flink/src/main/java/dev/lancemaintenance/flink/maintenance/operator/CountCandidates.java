package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.engine.CleanupStage;

/**
 * Stages {@code sweep} and {@code release manifests} of a dry run: counts the files a real run
 * would delete, exactly as the sweep counts a successful delete, and deletes nothing.
 */
public final class CountCandidates extends CandidateStage {
  private CleanupCounters counters = CleanupCounters.ZERO;

  public CountCandidates(FileReport report, CleanupStage stage) {
    super(report, stage);
  }

  @Override
  void accept(CandidateFile file) {
    counters = counters.record(file);
    published(CleanupCounters.ZERO.record(file));
  }

  @Override
  CleanupCounters completeCounters() {
    return counters;
  }
}
