package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * The gate between mark and every delete (parallelism 1): takes the run's one reduced {@link
 * MarkSummary}, refuses the run when a tagged version would be removed and the policy says so, and
 * otherwise turns the summary into the {@link DecisionContext} the decide subtasks wait for. No
 * subtask decides a file before this context reaches it, so a refusal deletes nothing.
 *
 * <p>A refusal is a fact about the table, not a transient fault: it is wrapped in Flink's {@link
 * SuppressRestartsException} so the job fails at once whatever the restart strategy, instead of
 * re-reading the table for every restart attempt and failing the same way each time.
 */
public final class CheckTaggedVersions implements MapFunction<MarkSummary, DecisionContext> {
  private final RetentionFacts facts;

  public CheckTaggedVersions(RetentionFacts facts) {
    this.facts = facts;
  }

  @Override
  public DecisionContext map(MarkSummary summary) {
    try {
      summary.refuseTaggedOldVersions(facts);
    } catch (TaggedVersionsException refused) {
      // A refusal is not transient: restarting the job would only refuse again.
      throw new SuppressRestartsException(refused);
    }
    return DecisionContext.of(facts, summary);
  }
}
