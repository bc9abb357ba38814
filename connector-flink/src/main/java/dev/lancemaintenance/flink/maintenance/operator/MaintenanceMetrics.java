package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.engine.CleanupStage;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * Names of the Flink metrics of a cleanup run, all under one {@code lance_maintenance} group so that
 * dashboards find them whatever the operator is called.
 *
 * <p>A cleanup's progress metrics are named as the fields of the command line's progress line
 * ({@link dev.lancemaintenance.cleanup.ProgressSnapshot}); each is counted by the operator of its
 * stage, per subtask, so the job's value is the sum over subtasks: {@value #MANIFESTS_READ} of
 * {@value #MANIFESTS_TO_READ} (mark), {@value #FILES_LISTED} (list), {@value #CANDIDATES} (the
 * files released to a sweep), {@value #FILES_REMOVED} (in a dry run, counted), {@value #BYTES_FREED}
 * and {@value #FAILED_DELETES} (sweep, release). {@value #STAGE} is the number of the stage an
 * operator runs ({@link CleanupStage#number()}, as in the logs: {@code 2} mark to {@code 6}
 * release); in a BATCH job a stage's operators start when the stage before has finished, so the
 * highest among running operators is the run's stage. The rate and the ETA of the progress line are
 * left to the dashboard, which has the counters over time.
 */
public final class MaintenanceMetrics {
  public static final String GROUP = "lance_maintenance";
  public static final String STAGE = "stage";
  public static final String MANIFESTS_READ = "manifests_read";
  public static final String MANIFESTS_TO_READ = "manifests_to_read";
  public static final String FILES_LISTED = "files_listed";
  public static final String CANDIDATES = "candidates";
  public static final String FILES_REMOVED = "files_removed";
  public static final String BYTES_FREED = "bytes_freed";
  public static final String FAILED_DELETES = "failed_deletes";
  public static final String DURATION_MS = "duration_ms";
  public static final String RUNS = "runs";
  public static final String SKIPPED_RUNS = "skipped_runs";
  public static final String FAILED_RUNS = "failed_runs";

  private MaintenanceMetrics() {}

  /** The run's metric group of an operator, opened in {@code open()}. */
  public static MetricGroup of(RuntimeContext context) {
    return context.getMetricGroup().addGroup(GROUP);
  }

  /** The run's metric group of an operator of {@code stage}, with the {@value #STAGE} gauge registered. */
  static MetricGroup ofStage(MetricGroup operator, CleanupStage stage) {
    MetricGroup group = operator.addGroup(GROUP);
    group.gauge(STAGE, (Gauge<Integer>) stage::number);
    return group;
  }
}
