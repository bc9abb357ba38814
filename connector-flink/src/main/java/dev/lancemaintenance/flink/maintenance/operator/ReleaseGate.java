package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.engine.Gate;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Holds files (keyed by path) back from their sweep until the one reduced value they wait for has
 * arrived on the broadcast input, then lets them through when {@code releases} says so: decided
 * files once the referenced-files gate passed, expired manifests once the counters of every other
 * delete show no failure ({@link dev.lancemaintenance.cleanup.engine.CleanupRun#releasesExpiredManifests}).
 * Each file let through is one of its stage's {@value MaintenanceMetrics#CANDIDATES}.
 *
 * <p>In BATCH mode the broadcast arrives before any file; a file seen without it fails the job
 * rather than guess.
 *
 * @param <S> the reduced value the files wait for
 */
public final class ReleaseGate<S> extends KeyedBroadcastProcessFunction<String, CandidateFile, S, CandidateFile> {
  private final AwaitedDecision<S, Boolean> releases;
  private final CleanupStage stage;
  private transient Counter candidates;

  /**
   * @param state the broadcast state the reduced value is kept in; its name says what the files wait for
   * @param releases whether the reduced value lets the files through; evaluated once per subtask
   * @param stage the stage the released files go to, whose {@value MaintenanceMetrics#CANDIDATES} they are
   */
  public ReleaseGate(String table, MapStateDescriptor<String, S> state, Gate<S, Boolean> releases, CleanupStage stage) {
    this.releases = new AwaitedDecision<>(table, state, releases, "its gate");
    this.stage = stage;
  }

  @Override
  public void open(OpenContext openContext) {
    candidates = MaintenanceMetrics.ofStage(getRuntimeContext().getMetricGroup(), stage).counter(MaintenanceMetrics.CANDIDATES);
  }

  @Override
  public void processBroadcastElement(S reduced, Context ctx, Collector<CandidateFile> out) throws Exception {
    releases.arrived(ctx.getBroadcastState(releases.state()), reduced);
  }

  @Override
  public void processElement(CandidateFile file, ReadOnlyContext ctx, Collector<CandidateFile> out) throws Exception {
    if (releases.forFile(ctx.getBroadcastState(releases.state()), file)) {
      candidates.inc();
      out.collect(file);
    }
  }
}
