package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The per-path rules apply relative to the dataset being cleaned, main or a branch. */
class BranchPathRulesTest {
  private static final DatasetRef BRANCH_DATASET = DatasetRef.branch("feature/x");
  private static final String BRANCH = BRANCH_DATASET.dir();
  private static final long OLD = 0;
  private static final DecisionContext BRANCH_CONTEXT = new DecisionContext(BRANCH_DATASET, Long.MAX_VALUE, 1_000, false, 1_000);

  @Test
  void keysIndexFilesOfABranchByTheBranchsIndexDirectory() {
    assertThat(ReferenceKeys.keyOf(BRANCH_DATASET, BRANCH + "/_indices/u1/part/index.idx")).isEqualTo(BRANCH + "/_indices/u1");
    assertThat(ReferenceKeys.keyOf(DatasetRef.MAIN, "_indices/u1/index.idx")).isEqualTo("_indices/u1");
  }

  @Test
  void keysBlobSidecarsOfABranchByTheirParentDataFile() {
    assertThat(ReferenceKeys.keyOf(BRANCH_DATASET, BRANCH + "/data/stem/00000001.blob")).isEqualTo(BRANCH + "/data/stem.lance");
    assertThat(ReferenceKeys.keyOf(BRANCH_DATASET, BRANCH + "/data/a/b/00000001.blob")).isEqualTo(BRANCH + "/data/a/b/00000001.blob");
  }

  @Test
  void marksOnlyKeysInTheManagedDirectoriesOfTheCleanedDataset() {
    assertThat(ReferenceKeys.isInDataset(BRANCH_DATASET, BRANCH + "/data/x.lance")).isTrue();
    assertThat(ReferenceKeys.isInDataset(BRANCH_DATASET, "data/x.lance")).isFalse();
    assertThat(ReferenceKeys.isInDataset(BRANCH_DATASET, BRANCH + "/other/x.lance")).isFalse();
    assertThat(ReferenceKeys.isInDataset(DatasetRef.MAIN, "data/x.lance")).isTrue();
    assertThat(ReferenceKeys.isInDataset(DatasetRef.MAIN, BRANCH + "/data/x.lance")).isFalse();
  }

  @Test
  void decidesBranchFilesByTheirPlaceInTheBranch() {
    DecideByPath decide = new DecideByPath(BRANCH_CONTEXT);
    assertThat(decide.decide(file(BRANCH + "/_transactions/3-a.txn"), Optional.of(MarkState.EXPIRED)))
        .hasValueSatisfying(candidate -> {
          assertThat(candidate.kind()).isEqualTo(FileKind.TRANSACTION);
          assertThat(candidate.reason()).isEqualTo(RemovalReason.EXPIRED_VERSION);
        });
    assertThat(decide.decide(file(BRANCH + "/_indices/stray.bin"), Optional.empty()))
        .hasValueSatisfying(candidate -> assertThat(candidate.kind()).isEqualTo(FileKind.INDEX));
    assertThat(decide.decide(file(BRANCH + "/_versions/.tmp_x"), Optional.empty())).isPresent();
  }

  @Test
  void leavesFilesOutsideTheBranchAlone() {
    DecideByPath decide = new DecideByPath(BRANCH_CONTEXT);
    assertThat(decide.decide(file("data/x.lance"), Optional.of(MarkState.EXPIRED))).isEmpty();
    assertThat(decide.decide(file("tree/feature/data/x.lance"), Optional.empty())).isEmpty();
    assertThat(decide.decide(file(BRANCH + "/x.lance"), Optional.empty())).isEmpty();
  }

  private static FileEntry file(String path) {
    return new FileEntry(path, 10, OLD);
  }
}
