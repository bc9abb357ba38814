package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * The gate between mark and every delete (parallelism 1): takes the run's one reduced {@link
 * MarkSummary}, refuses the run when a tagged version would be removed and the policy says so, and
 * otherwise turns the summary into the {@link DecisionContext} the decide subtasks wait for. No
 * subtask decides a file before this context reaches it, so a refusal deletes nothing.
 */
public final class CheckTaggedVersions implements MapFunction<MarkSummary, DecisionContext> {
  private final RetentionFacts facts;

  public CheckTaggedVersions(RetentionFacts facts) {
    this.facts = facts;
  }

  @Override
  public DecisionContext map(MarkSummary summary) {
    if (facts.policy().errorIfTaggedOldVersions() && !summary.taggedOldVersions().isEmpty()) {
      throw new TaggedVersionsException(facts.describe(), summary.taggedOldVersions());
    }
    return DecisionContext.of(facts, summary);
  }
}
