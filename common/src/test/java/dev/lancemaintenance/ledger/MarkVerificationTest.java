package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.FileKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Verify mode refuses on any difference a decision could use, and only then. */
class MarkVerificationTest {
  private static final CandidateFile V1 = new CandidateFile("_versions/1.manifest", FileKind.MANIFEST, 10, RemovalReason.EXPIRED_VERSION);

  private static MarkResult result(MarkState aState, long earliest, List<CandidateFile> expired, long read) {
    return new MarkResult(List.of(new ReferenceMark("data/a.lance", FileKind.DATA, aState),
        new ReferenceMark("data/b.lance", FileKind.DATA, MarkState.KEPT)), expired, new MarkSummary(read, expired.size(), earliest, Map.of()));
  }

  @Test
  void agreesWhenOnlyTheManifestsReadDiffer() {
    MarkResult full = result(MarkState.EXPIRED, 5, List.of(V1), 9);
    assertThatCode(() -> MarkVerification.requireSame("t", result(MarkState.EXPIRED, 5, List.of(V1), 1), List.of(full)))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesOnAMarkAnExpiredManifestOrARetentionFactThatDiffers() {
    MarkResult full = result(MarkState.EXPIRED, 5, List.of(V1), 9);
    assertThatThrownBy(() -> MarkVerification.requireSame("t", result(MarkState.KEPT, 5, List.of(V1), 1), List.of(full)))
        .isInstanceOf(MaintenanceException.class).hasMessageContaining("t").hasMessageContaining("data/a.lance")
        .hasMessageContaining("nothing was deleted");
    assertThatThrownBy(() -> MarkVerification.requireSame("t", result(MarkState.EXPIRED, 5, List.of(), 1), List.of(full)))
        .hasMessageContaining("expired manifests");
    assertThatThrownBy(() -> MarkVerification.requireSame("t", result(MarkState.EXPIRED, 6, List.of(V1), 1), List.of(full)))
        .hasMessageContaining("retention facts");
    MarkResult missing = new MarkResult(List.of(new ReferenceMark("data/b.lance", FileKind.DATA, MarkState.KEPT)), List.of(V1),
        new MarkSummary(1, 1, 5, Map.of()));
    assertThatThrownBy(() -> MarkVerification.requireSame("t", missing, List.of(full))).hasMessageContaining("data/a.lance: ledger none");
  }
}
