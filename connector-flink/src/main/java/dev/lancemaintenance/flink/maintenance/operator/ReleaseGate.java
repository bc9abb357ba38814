package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.engine.Gate;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Holds files (keyed by path) back from their sweep until the one reduced value they wait for has
 * arrived on the broadcast input, then lets them through when {@code releases} says so: decided
 * files once the referenced-files gate passed, expired manifests once the counters of every other
 * delete show no failure ({@link dev.lancemaintenance.cleanup.engine.CleanupRun#releasesExpiredManifests}).
 *
 * <p>In BATCH mode the broadcast arrives before any file; a file seen without it fails the job
 * rather than guess.
 *
 * @param <S> the reduced value the files wait for
 */
public final class ReleaseGate<S> extends KeyedBroadcastProcessFunction<String, CandidateFile, S, CandidateFile> {
  private final String table;
  private final MapStateDescriptor<String, S> state;
  private final Gate<S, Boolean> releases;
  private final CleanupStage stage;
  private transient Boolean released;
  private transient Counter candidates;

  /**
   * @param state the broadcast state the reduced value is kept in; its name says what the files wait for
   * @param releases whether the reduced value lets the files through; evaluated once per subtask
   * @param stage the stage the released files go to, whose {@value MaintenanceMetrics#CANDIDATES} they are
   */
  public ReleaseGate(String table, MapStateDescriptor<String, S> state, Gate<S, Boolean> releases, CleanupStage stage) {
    this.table = table;
    this.state = state;
    this.releases = releases;
    this.stage = stage;
  }

  @Override
  public void open(OpenContext openContext) {
    candidates = MaintenanceMetrics.ofStage(getRuntimeContext().getMetricGroup(), stage).counter(MaintenanceMetrics.CANDIDATES);
  }

  @Override
  public void processBroadcastElement(S reduced, Context ctx, Collector<CandidateFile> out) throws Exception {
    ctx.getBroadcastState(state).put(AwaitedValue.KEY, reduced);
    released = releases.check(reduced);
  }

  @Override
  public void processElement(CandidateFile file, ReadOnlyContext ctx, Collector<CandidateFile> out) throws Exception {
    if (released == null) {
      released = releases.check(AwaitedValue.require(ctx.getBroadcastState(state), state, table, file, "its gate"));
    }
    if (released) {
      candidates.inc();
      out.collect(file);
    }
  }
}
