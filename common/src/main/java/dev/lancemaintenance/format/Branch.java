package dev.lancemaintenance.format;

import java.util.Objects;
import java.util.Optional;

/**
 * A branch: its own version history in {@code tree/<name>/}, forked from a version of its parent,
 * whose files it keeps reading until it rewrites them.
 *
 * @param name may contain {@code /}
 * @param parentBranch the branch it forked from; empty for the main line
 * @param parentVersion the parent's version at the fork, which the parent must keep
 * @param createAtSeconds creation time, seconds since the epoch
 * @param manifestSize the size of the fork-point manifest, as Lance recorded it
 */
public record Branch(
    String name, Optional<String> parentBranch, long parentVersion, long createAtSeconds, long manifestSize) {
  public Branch {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(parentBranch, "parentBranch");
  }

  /** The branch as a dataset of its table, in {@code tree/<name>}. */
  public DatasetRef dataset() {
    return DatasetRef.tree(name);
  }
}
