package dev.lancemaintenance.report;

import dev.lancemaintenance.format.DatasetRef;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What every classify task needs, fixed on the driver once the mark has reported: the given policy
 * and each window of the what-if, with the cleanup's decision context of each.
 *
 * @param dataset the dataset reported on
 * @param nowMillis the report's clock, read once
 * @param given the policy the report was asked for ("reclaimable now")
 * @param windows the what-if windows, in the order asked
 */
public record ReportContext(DatasetRef dataset, long nowMillis, ReportWindow given, List<ReportWindow> windows)
    implements Serializable {
  public ReportContext {
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(given, "given");
    windows = List.copyOf(windows);
  }

  /** Empty counters shaped for this context. */
  public StorageCounters newCounters() {
    return new StorageCounters(windows.size());
  }
}
