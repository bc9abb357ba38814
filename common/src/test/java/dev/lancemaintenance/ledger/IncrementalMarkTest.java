package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestNaming;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the ledger may answer for the listed manifests, and when the run must decode them all. */
class IncrementalMarkTest {
  private static ManifestLocation listed(long v, ManifestNaming naming, long size, long mtime) {
    return new ManifestLocation("_versions/" + naming.fileName(v), v, size, mtime, naming);
  }

  private static LedgerVersion summarised(long v) {
    return new LedgerVersion(v, "_versions/" + ManifestNaming.V2.fileName(v), 100 + v, 1_000 * v, v);
  }

  private static LedgerState ledgerOf(long... versions) {
    LedgerState state = new LedgerState("f", DatasetRef.MAIN);
    state.apply("s", new LedgerSegment("f", DatasetRef.MAIN, java.util.Arrays.stream(versions).mapToObj(IncrementalMarkTest::summarised).toList(),
        List.of(), List.of()));
    return state;
  }

  private static ManifestLocation same(long v) {
    return listed(v, ManifestNaming.V2, 100 + v, 1_000 * v);
  }

  @Test
  void theLedgerAnswersForTheVeryFilesItSummarisedAndVersionsAfterIt() {
    assertThat(IncrementalMark.mismatch(ledgerOf(1, 2, 3), List.of(same(1), same(2), same(3), same(4), same(5)))).isEmpty();
  }

  @Test
  void manifestsRemovedSinceAreNoMismatch() {
    assertThat(IncrementalMark.mismatch(ledgerOf(1, 2, 3), List.of(same(3), same(4)))).isEmpty();
  }

  @Test
  void aManifestReplacedUnderItsNameIsAMismatch() {
    assertThat(IncrementalMark.mismatch(ledgerOf(1, 2, 3), List.of(same(1), listed(2, ManifestNaming.V2, 999, 2_000), same(3))))
        .get().asString().contains("_versions/" + ManifestNaming.V2.fileName(2)).contains("differ");
    assertThat(IncrementalMark.mismatch(ledgerOf(1, 2, 3), List.of(same(1), listed(2, ManifestNaming.V2, 102, 2_001), same(3))))
        .as("same length, another modification time").isPresent();
  }

  @Test
  void aChangeOfNamingSchemeIsAMismatch() {
    assertThat(IncrementalMark.mismatch(ledgerOf(1, 2, 3), List.of(listed(1, ManifestNaming.V1, 101, 1_000), same(2), same(3))))
        .get().asString().contains("_versions/1.manifest");
  }

  @Test
  void aManifestNewUnderANumberTheLedgerPassedIsAMismatch() {
    assertThat(IncrementalMark.mismatch(ledgerOf(1, 3), List.of(same(1), same(2), same(3))))
        .get().asString().contains("new under a number");
  }
}
