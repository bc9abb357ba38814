package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CleanupCounters;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.MetricGroup;

/**
 * Names of the Flink metrics of a cleanup run, all under one {@code lance_maintenance} group so that
 * dashboards find them whatever the operator is called.
 */
public final class MaintenanceMetrics {
  public static final String GROUP = "lance_maintenance";
  public static final String MANIFESTS_DECODED = "manifests_decoded";
  public static final String FILES_LISTED = "files_listed";
  public static final String FILES_DELETED = "files_deleted";
  public static final String BYTES_DELETED = "bytes_deleted";
  public static final String FAILED_DELETES = "failed_deletes";
  public static final String DURATION_MS = "duration_ms";
  public static final String RUNS = "runs";
  public static final String SKIPPED_RUNS = "skipped_runs";
  public static final String FAILED_RUNS = "failed_runs";

  private MaintenanceMetrics() {}

  /** Files a run removed, whatever their kind: the {@code files_deleted} increment. */
  public static long filesRemoved(CleanupCounters c) {
    return c.dataFilesRemoved() + c.deletionFilesRemoved() + c.indexFilesRemoved() + c.transactionFilesRemoved()
        + c.manifestFilesRemoved() + c.otherFilesRemoved();
  }

  /** The run's metric group of an operator, opened in {@code open()}. */
  public static MetricGroup of(RuntimeContext context) {
    return context.getMetricGroup().addGroup(GROUP);
  }
}
