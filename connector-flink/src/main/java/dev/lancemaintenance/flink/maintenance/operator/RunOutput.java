package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import java.util.List;

/**
 * What a cleanup job sends back to its client: files as they are removed (or, in a dry run,
 * selected), the run's counters, reduced to one record at parallelism 1, and what the client needs
 * of the reduced mark summary, likewise one record: the manifests the mark stage decoded (the run
 * record and the result row report them) and the expiry records it used (the client retires them
 * once the counters say the sweep was complete).
 *
 * @param removed a removed file, or null
 * @param counters counters, or null
 * @param manifestsRead manifests decoded, or null; set together with {@code expiryRecordsUsed}
 * @param expiryRecordsUsed the paths of the expiry records the mark stage used, or null (an array:
 *     a type Flink ships without Kryo)
 */
public record RunOutput(
    CandidateFile removed, CleanupCounters counters, Long manifestsRead, String[] expiryRecordsUsed) {
  public RunOutput {
    boolean mark = manifestsRead != null && expiryRecordsUsed != null;
    boolean halfMark = (manifestsRead == null) != (expiryRecordsUsed == null);
    int kinds = (removed == null ? 0 : 1) + (counters == null ? 0 : 1) + (mark ? 1 : 0);
    if (kinds != 1 || halfMark) {
      throw new IllegalArgumentException("A run output is exactly one of a file, counters or the mark's outcome");
    }
  }

  public static RunOutput of(CandidateFile removed) {
    return new RunOutput(removed, null, null, null);
  }

  public static RunOutput of(CleanupCounters counters) {
    return new RunOutput(null, counters, null, null);
  }

  /** The reduced mark summary's manifests read and expiry records used. */
  public static RunOutput ofMark(MarkSummary summary) {
    return new RunOutput(null, null, summary.manifestsRead(), summary.expiryRecordsUsed().toArray(String[]::new));
  }

  public boolean isCounters() {
    return counters != null;
  }

  public boolean isFile() {
    return removed != null;
  }

  public boolean isMark() {
    return manifestsRead != null;
  }

  /** The expiry records, when this is the mark's outcome. */
  public List<String> expiryRecords() {
    return List.of(expiryRecordsUsed);
  }
}
