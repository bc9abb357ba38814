package dev.lancemaintenance.cleanup.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.Branch;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BranchLineageTest {
  private static final Branch B1 = branch("b1", Optional.empty(), 2);
  private static final Branch B2 = branch("b2", Optional.of("b1"), 4);
  private static final Branch B3 = branch("b3", Optional.of("b2"), 6);
  private static final Branch OTHER = branch("other", Optional.empty(), 1);
  private static final Branch ORPHAN = branch("orphan", Optional.of("gone"), 3);

  @Test
  void findsEveryDescendantWithTheVersionOfTheCleanedLineageDeepestFirst() {
    List<BranchLineage.Descendant> ofMain =
        BranchLineage.descendantsOf(Optional.empty(), List.of(B1, B2, B3, OTHER, ORPHAN));
    assertThat(ofMain).extracting(d -> d.branch().name() + "@" + d.forkVersion())
        .containsExactly("b3@2", "b2@2", "b1@2", "other@1");
  }

  @Test
  void findsTheDescendantsOfABranchWithTheirForkPointsInThatBranch() {
    List<BranchLineage.Descendant> ofB1 =
        BranchLineage.descendantsOf(Optional.of("b1"), List.of(B1, B2, B3, OTHER));
    assertThat(ofB1).extracting(d -> d.branch().name() + "@" + d.forkVersion()).containsExactly("b3@4", "b2@4");
  }

  private static Branch branch(String name, Optional<String> parent, long version) {
    return new Branch(name, parent, version, 0, 0);
  }
}
