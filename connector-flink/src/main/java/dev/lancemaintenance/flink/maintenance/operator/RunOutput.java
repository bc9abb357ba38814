package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import java.util.stream.Stream;

/**
 * What a cleanup job sends back to its client: files as they are removed (or, in a dry run,
 * selected), the run's counters, reduced to one record at parallelism 1, and the manifests the
 * mark stage decoded, likewise one record (the run record and the result row report them).
 *
 * @param removed a removed file, or null
 * @param counters counters, or null
 * @param manifestsRead manifests decoded, or null
 */
public record RunOutput(CandidateFile removed, CleanupCounters counters, Long manifestsRead) {
  public RunOutput {
    if (Stream.of(removed, counters, manifestsRead).filter(part -> part != null).count() != 1) {
      throw new IllegalArgumentException("A run output is exactly one of a file, counters or manifests read");
    }
  }

  public static RunOutput of(CandidateFile removed) {
    return new RunOutput(removed, null, null);
  }

  public static RunOutput of(CleanupCounters counters) {
    return new RunOutput(null, counters, null);
  }

  public static RunOutput ofManifestsRead(long manifests) {
    return new RunOutput(null, null, manifests);
  }

  public boolean isCounters() {
    return counters != null;
  }

  public boolean isFile() {
    return removed != null;
  }
}
