package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A dataset is the main line ({@code ""}) or a branch ({@code tree/<name>}), nothing else. */
class DatasetRefTest {
  @Test
  void aDatasetDirectoryIsMainOrTreeSlashBranch() {
    assertThat(DatasetRef.of(Optional.empty())).isEqualTo(DatasetRef.MAIN);
    assertThat(DatasetRef.MAIN.dir()).isEmpty();
    assertThat(DatasetRef.of(Optional.of("feature/x")).dir()).isEqualTo("tree/feature/x");
    assertThat(new DatasetRef("tree/feature/x").branchName()).hasValue("feature/x");
    assertThat(DatasetRef.MAIN.branchName()).isEmpty();
    for (String bad : new String[] {"tree/", "tree", "data", "_versions", "trees/x"}) {
      assertThatThrownBy(() -> new DatasetRef(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aBranchNameThatCouldLeaveTreeIsRefused() {
    for (String bad : new String[] {"", "/b", "b/", "../main", "a/../../x"}) {
      assertThatThrownBy(() -> DatasetRef.branch(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(DatasetRef.branch("b1").describe("s3a://t")).isEqualTo("branch b1 of s3a://t");
    assertThat(DatasetRef.MAIN.describe("s3a://t")).isEqualTo("s3a://t");
  }

  @Test
  void pathsResolveAndRelativizeAgainstTheDatasetDirectory() {
    DatasetRef branch = DatasetRef.branch("team/exp");
    assertThat(branch.resolve("data/a.lance")).isEqualTo("tree/team/exp/data/a.lance");
    assertThat(DatasetRef.MAIN.resolve("data/a.lance")).isEqualTo("data/a.lance");
    assertThat(branch.relativize("tree/team/exp/data/a.lance")).isEqualTo("data/a.lance");
    assertThat(branch.relativize("tree/team/expired/data/a.lance")).as("a sibling whose name extends it").isNull();
    assertThat(branch.relativize("tree/team/exp")).isNull();
    assertThat(branch.relativize("data/a.lance")).isNull();
    assertThat(DatasetRef.MAIN.relativize("tree/team/exp/data/a.lance")).isEqualTo("tree/team/exp/data/a.lance");
  }
}
