package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import org.apache.flink.api.common.functions.ReduceFunction;

/** The monoid reductions of the topology, each run at parallelism 1 after a single-key keyBy. */
public final class Reductions {
  private Reductions() {}

  public static final class SumSummaries implements ReduceFunction<MarkSummary> {
    @Override
    public MarkSummary reduce(MarkSummary a, MarkSummary b) {
      return a.plus(b);
    }
  }

  public static final class SumUnlisted implements ReduceFunction<UnlistedReferences> {
    @Override
    public UnlistedReferences reduce(UnlistedReferences a, UnlistedReferences b) {
      return a.plus(b);
    }
  }

  public static final class SumCounters implements ReduceFunction<CleanupCounters> {
    @Override
    public CleanupCounters reduce(CleanupCounters a, CleanupCounters b) {
      return a.plus(b);
    }
  }
}
