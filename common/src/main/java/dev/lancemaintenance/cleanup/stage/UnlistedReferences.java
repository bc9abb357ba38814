package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.MissingFilesException;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What the decide stage found referenced by a retained version but carried by no listed file; a
 * monoid, reduced to the driver like {@link MarkSummary}. Holds a count and the first few keys in
 * order, never every path, so the reduction stays small however damaged the table is.
 *
 * @param count reference keys a retained version needs and the listing did not show
 * @param examples the smallest of them, at most {@link #EXAMPLES}
 */
public record UnlistedReferences(long count, List<String> examples) implements Serializable {
  /** Keys named in the error: enough to find the damage, few enough for one line. */
  public static final int EXAMPLES = 5;

  public static final UnlistedReferences NONE = new UnlistedReferences(0, List.of());

  public UnlistedReferences {
    examples = List.copyOf(examples);
  }

  /** One missing key. */
  public static UnlistedReferences of(String key) {
    return new UnlistedReferences(1, List.of(key));
  }

  public UnlistedReferences plus(UnlistedReferences other) {
    if (other.count == 0) {
      return this;
    }
    if (count == 0) {
      return other;
    }
    TreeSet<String> merged = new TreeSet<>(examples);
    merged.addAll(other.examples);
    List<String> kept = new ArrayList<>(EXAMPLES);
    for (String key : merged) {
      if (kept.size() == EXAMPLES) {
        break;
      }
      kept.add(key);
    }
    return new UnlistedReferences(count + other.count, kept);
  }

  /**
   * Refuses the run when a retained version references a file that is not there; every engine calls
   * this once the decision of every key is known and before its first delete.
   */
  public void refuseIfAny(RetentionFacts facts) {
    if (count > 0) {
      throw new MissingFilesException(facts.describeListing(), count, examples);
    }
  }
}
