package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.format.DatasetRef;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Kept wins over kept-if-present wins over expired; only a certain kept reference may be missing. */
class MarkStateTest {
  private static final DecideByPath DECIDE =
      new DecideByPath(new DecisionContext(DatasetRef.MAIN, Long.MAX_VALUE, Long.MAX_VALUE, true, Long.MAX_VALUE));

  @ParameterizedTest
  @EnumSource(MarkState.class)
  void mergingIsTheStrongerStateEitherWay(MarkState state) {
    assertThat(MarkState.KEPT.merge(state)).isEqualTo(MarkState.KEPT);
    assertThat(state.merge(MarkState.KEPT)).isEqualTo(MarkState.KEPT);
    assertThat(state.merge(MarkState.EXPIRED)).isEqualTo(state);
    assertThat(MarkState.EXPIRED.merge(state)).isEqualTo(state);
    assertThat(state.merge(state)).isEqualTo(state);
  }

  @Test
  void keptIfPresentOutranksExpired() {
    assertThat(MarkState.KEPT_IF_PRESENT.merge(MarkState.EXPIRED)).isEqualTo(MarkState.KEPT_IF_PRESENT);
  }

  @Test
  void aListedFileMarkedKeptIfPresentStays() {
    FileEntry old = new FileEntry("data/a.lance", 10, 0);

    assertThat(DECIDE.decide(old, Optional.of(MarkState.KEPT_IF_PRESENT))).isEmpty();
    assertThat(DECIDE.decide(old, Optional.of(MarkState.KEPT))).isEmpty();
    assertThat(DECIDE.decide(old, Optional.of(MarkState.EXPIRED))).isPresent();
  }

  @Test
  void onlyACertainKeptReferenceThatIsNotListedIsMissing() {
    assertThat(DECIDE.unlisted("data/a.lance", MarkState.KEPT)).isEqualTo(UnlistedReferences.of("data/a.lance"));
    assertThat(DECIDE.unlisted("data/a.lance", MarkState.KEPT_IF_PRESENT)).isEqualTo(UnlistedReferences.NONE);
    assertThat(DECIDE.unlisted("data/a.lance", MarkState.EXPIRED)).isEqualTo(UnlistedReferences.NONE);
  }
}
