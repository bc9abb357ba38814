package dev.lancemaintenance.report;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What every classify task needs, fixed on the driver once the mark has reported: the given policy
 * and each window of the what-if, with the cleanup's decision context of each.
 *
 * @param datasetDir the dataset reported on ({@code ""} or {@code tree/<branch>})
 * @param nowMillis the report's clock, read once
 * @param given the policy the report was asked for ("reclaimable now")
 * @param windows the what-if windows, in the order asked
 */
public record ReportContext(String datasetDir, long nowMillis, ReportWindow given, List<ReportWindow> windows)
    implements Serializable {
  public ReportContext {
    Objects.requireNonNull(datasetDir, "datasetDir");
    Objects.requireNonNull(given, "given");
    windows = List.copyOf(windows);
  }

  /** Empty counters shaped for this context. */
  public StorageCounters newCounters() {
    return new StorageCounters(windows.size());
  }
}
