package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;

/**
 * What a cleanup job sends back to its client: files as they are removed (or, in a dry run,
 * selected), and the run's counters, reduced to one record at parallelism 1.
 *
 * @param removed a removed file, or null for a counters record
 * @param counters counters, or null for a file record
 */
public record RunOutput(CandidateFile removed, CleanupCounters counters) {
  public RunOutput {
    if ((removed == null) == (counters == null)) {
      throw new IllegalArgumentException("A run output is exactly one of a file or counters");
    }
  }

  public static RunOutput of(CandidateFile removed) {
    return new RunOutput(removed, null);
  }

  public static RunOutput of(CleanupCounters counters) {
    return new RunOutput(null, counters);
  }

  public boolean isCounters() {
    return counters != null;
  }
}
