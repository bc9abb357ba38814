package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.MaintenanceException;

/**
 * Turns a failed Flink job back into the error its stage threw: Flink wraps a task's exception in
 * several layers (job execution, restart, collect), and callers of every engine expect the same
 * {@link MaintenanceException} subtypes.
 */
final class FlinkFailures {
  private FlinkFailures() {}

  static RuntimeException unwrap(String table, Throwable failure) {
    return MaintenanceException.in(failure)
        .map(RuntimeException.class::cast)
        .orElseGet(() -> new MaintenanceException(
            "Cannot clean up " + table + ": the Flink job failed (" + failure + ")", failure));
  }
}
