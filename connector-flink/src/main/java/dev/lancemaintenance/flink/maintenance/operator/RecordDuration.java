package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CleanupCounters;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Gauge;

/**
 * The run's final counters (parallelism 1, after the last reduction): wraps them for the client and
 * publishes the run's duration as a gauge, measured from the start the client recorded.
 */
public final class RecordDuration extends RichMapFunction<CleanupCounters, RunOutput> {
  private final long startMillis;
  private transient volatile long durationMillis;

  public RecordDuration(long startMillis) {
    this.startMillis = startMillis;
  }

  @Override
  public void open(OpenContext openContext) {
    MaintenanceMetrics.of(getRuntimeContext()).gauge(MaintenanceMetrics.DURATION_MS, (Gauge<Long>) () -> durationMillis);
  }

  @Override
  public RunOutput map(CleanupCounters counters) {
    durationMillis = System.currentTimeMillis() - startMillis;
    return RunOutput.of(counters);
  }
}
