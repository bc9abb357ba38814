package dev.lancemaintenance.flink.procedures;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * What the Lance catalog was created with and its procedures reach a table's store by.
 *
 * @param hadoopOptions the Hadoop configuration of the tables' store (cleanup and every procedure
 *     that reads or writes the table's own files); may hold credentials: never printed
 * @param sdkOptions the Lance SDK's storage options (compaction)
 * @param clock what cutoffs and run records take "now" from
 */
record CatalogSettings(Map<String, String> hadoopOptions, Map<String, String> sdkOptions, Clock clock) {
  CatalogSettings {
    hadoopOptions = Map.copyOf(hadoopOptions);
    sdkOptions = Map.copyOf(sdkOptions);
    Objects.requireNonNull(clock, "clock");
  }

  @Override
  public String toString() {
    return "CatalogSettings[" + hadoopOptions.size() + " Hadoop options, " + sdkOptions.size() + " SDK options]";
  }
}
