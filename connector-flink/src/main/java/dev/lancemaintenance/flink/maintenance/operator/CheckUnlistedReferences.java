package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.MissingFilesException;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * The gate between decide and every delete (parallelism 1): takes the run's one reduced {@link
 * UnlistedReferences} and refuses the run when a retained version needs a file the listing did not
 * show. The reduction exists only once every decide subtask has finished, and no decided file
 * reaches a sweep before it, so a refusal deletes nothing.
 *
 * <p>Like {@link CheckTaggedVersions}, a refusal is a fact about the table: Flink's {@link
 * SuppressRestartsException} fails the job at once instead of listing the table again per restart.
 */
public final class CheckUnlistedReferences implements MapFunction<UnlistedReferences, UnlistedReferences> {
  private final RetentionFacts facts;

  public CheckUnlistedReferences(RetentionFacts facts) {
    this.facts = facts;
  }

  @Override
  public UnlistedReferences map(UnlistedReferences unlisted) {
    try {
      unlisted.refuseIfAny(facts);
    } catch (MissingFilesException refused) {
      throw new SuppressRestartsException(refused);
    }
    return unlisted;
  }
}
