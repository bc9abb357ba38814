package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.format.Branch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The branches that descend from one dataset of a table (the main line or a branch), each with the
 * version of that dataset its line of forks starts from. A cleanup of the dataset must keep those
 * versions' manifests and every file the descendants read through their base paths; Lance 7 calls
 * them the dataset's "referenced branches" ({@code BranchIdentifier::collect_referenced_versions}).
 */
public final class BranchLineage {
  private BranchLineage() {}

  /**
   * A descendant branch.
   *
   * @param branch the descendant
   * @param forkVersion the version of the cleaned dataset its ancestry forked from
   * @param depth 1 for a direct child, 2 for a grandchild, ...
   */
  public record Descendant(Branch branch, long forkVersion, int depth) {}

  /**
   * The descendants of {@code dataset} (empty for main), deepest first, as Lance visits them: a
   * branch is cleaned before the branch it forked from. A branch whose chain of parents breaks (a
   * parent that no longer exists) is not counted as a descendant of anything but main's direct line.
   */
  public static List<Descendant> descendantsOf(Optional<String> dataset, List<Branch> branches) {
    Map<String, Branch> byName = new HashMap<>();
    branches.forEach(branch -> byName.put(branch.name(), branch));
    List<Descendant> descendants = new ArrayList<>();
    for (Branch branch : branches) {
      Branch ancestor = branch;
      // A chain longer than the number of branches is a cycle in corrupt refs: not a descendant.
      for (int depth = 1; depth <= branches.size(); depth++) {
        if (ancestor.parentBranch().equals(dataset)) {
          descendants.add(new Descendant(branch, ancestor.parentVersion(), depth));
          break;
        }
        Optional<Branch> parent = ancestor.parentBranch().map(byName::get);
        if (parent.isEmpty()) {
          break;
        }
        ancestor = parent.get();
      }
    }
    descendants.sort(Comparator.comparingInt(Descendant::depth).reversed()
        .thenComparing(descendant -> descendant.branch().name()));
    return descendants;
  }
}
