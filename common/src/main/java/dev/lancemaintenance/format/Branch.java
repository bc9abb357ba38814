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
  static final String TREE_DIR = "tree";

  public Branch {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(parentBranch, "parentBranch");
  }

  /** The branch's dataset directory, relative to the table root: {@code tree/<name>}. */
  public String datasetDir() {
    return TREE_DIR + "/" + name;
  }

  /** The branch as a dataset of its table. */
  public DatasetRef dataset() {
    return new DatasetRef(datasetDir());
  }
}
