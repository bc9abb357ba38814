package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.engine.Gate;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * A gate of {@link CleanupRun} where its reduction lands (parallelism 1): the tagged-versions gate
 * between mark and decide, the referenced-files gate between decide and the sweep. No subtask
 * downstream acts before this operator's one output reaches it, so a refusal deletes nothing.
 *
 * <p>A refusal is a fact about the table, not a transient fault: it is wrapped in Flink's {@link
 * SuppressRestartsException} so the job fails at once whatever the restart strategy, instead of
 * reading the table again for every restart attempt and failing the same way each time.
 */
public final class CheckGate<I, O> implements MapFunction<I, O> {
  private final Gate<I, O> gate;

  public CheckGate(Gate<I, O> gate) {
    this.gate = gate;
  }

  @Override
  public O map(I reduced) {
    try {
      return gate.check(reduced);
    } catch (MaintenanceException refused) {
      throw new SuppressRestartsException(refused);
    }
  }
}
