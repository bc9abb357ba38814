package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.engine.Gate;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * {@code max_deletes} on Flink (parallelism 1): passes the first files of its input on to the sweep
 * up to the budget and counts each further one as deferred on {@link #DEFERRED}. A subtask of a
 * parallel sweep cannot know what the others deleted, so the budget is spent here, in one place; the
 * files stream through one at a time, none is held. The budget comes from the one reduced value the
 * files wait for (the manifests' budget is what the file sweep left of {@code max_deletes}), which in
 * BATCH mode arrives before any file ({@link AwaitedDecision}).
 *
 * @param <S> the reduced value the budget is computed from
 */
public final class CapDeletes<S> extends BroadcastProcessFunction<CandidateFile, S, CandidateFile> {
  /** One record per file left for the next run. */
  public static final OutputTag<CleanupCounters> DEFERRED = new OutputTag<>("deferred-deletes", CleanupTypes.COUNTERS);

  private final AwaitedDecision<S, Long> budget;
  /** The files this subtask may still pass on; negative until the budget is known. */
  private transient long left = -1;

  /**
   * @param state the broadcast state the reduced value is kept in
   * @param budget how many files may go, from the reduced value
   */
  public CapDeletes(String table, MapStateDescriptor<String, S> state, Gate<S, Long> budget) {
    this.budget = new AwaitedDecision<>(table, state, budget, "max_deletes");
  }

  @Override
  public void processBroadcastElement(S reduced, Context ctx, Collector<CandidateFile> out) throws Exception {
    left = budget.arrived(ctx.getBroadcastState(budget.state()), reduced);
  }

  @Override
  public void processElement(CandidateFile file, ReadOnlyContext ctx, Collector<CandidateFile> out) throws Exception {
    if (left < 0) {
      left = budget.forFile(ctx.getBroadcastState(budget.state()), file);
    }
    if (left > 0) {
      left--;
      out.collect(file);
    } else {
      ctx.output(DEFERRED, CleanupCounters.ZERO.deferred(1));
    }
  }
}
