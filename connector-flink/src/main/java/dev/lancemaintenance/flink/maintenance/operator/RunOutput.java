package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import java.util.List;

/**
 * What a cleanup job sends back to its client: files as they are removed (or, in a dry run,
 * selected), the run's counters, reduced to one record at parallelism 1, and the expiry records
 * the mark stage used (from the reduced mark summary), which the client retires once the counters
 * say the sweep was complete.
 *
 * @param removed a removed file, or null
 * @param counters counters, or null
 * @param expiryRecordsUsed the paths of the expiry records the mark stage used, or null (an array:
 *     a type Flink ships without Kryo)
 */
public record RunOutput(CandidateFile removed, CleanupCounters counters, String[] expiryRecordsUsed) {
  public RunOutput {
    int kinds = (removed == null ? 0 : 1) + (counters == null ? 0 : 1) + (expiryRecordsUsed == null ? 0 : 1);
    if (kinds != 1) {
      throw new IllegalArgumentException("A run output is exactly one of a file, counters or the expiry records used");
    }
  }

  public static RunOutput of(CandidateFile removed) {
    return new RunOutput(removed, null, null);
  }

  public static RunOutput of(CleanupCounters counters) {
    return new RunOutput(null, counters, null);
  }

  public static RunOutput ofExpiryRecordsUsed(java.util.Collection<String> records) {
    return new RunOutput(null, null, records.toArray(String[]::new));
  }

  public boolean isCounters() {
    return counters != null;
  }

  public boolean isFile() {
    return removed != null;
  }

  public boolean isExpiryRecordsUsed() {
    return expiryRecordsUsed != null;
  }

  /** The expiry records, when this is their output. */
  public List<String> expiryRecords() {
    return List.of(expiryRecordsUsed);
  }
}
