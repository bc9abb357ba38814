package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one grammar of {@code older_than} on every entry point: an ISO instant, an ISO duration, or
 * Lance's own auto-cleanup durations; anything else is refused naming the argument and the value,
 * and never turns into a cut-off that would remove more than asked.
 */
class OlderThanTest {
  private static final Instant NOW = Instant.parse("2026-06-15T12:00:00Z");

  @Test
  void anInstantIsTheCutOffWhateverNowIs() {
    assertThat(OlderThan.beforeTimestamp("2026-01-31T00:00:00Z", NOW)).isEqualTo(Instant.parse("2026-01-31T00:00:00Z"));
    assertThat(OlderThan.beforeTimestamp("2026-01-31T00:00:00Z", Instant.EPOCH)).isEqualTo(Instant.parse("2026-01-31T00:00:00Z"));
    assertThat(OlderThan.beforeTimestamp("  2026-01-31T00:00:00.5Z\n", NOW)).isEqualTo(Instant.parse("2026-01-31T00:00:00.500Z"));
    assertThat(OlderThan.window("2026-01-31T00:00:00Z")).isEmpty();
  }

  @Test
  void aDurationCountsBackFromNow() {
    assertThat(OlderThan.beforeTimestamp("pt2h", NOW)).as("ISO durations are case-insensitive").isEqualTo(NOW.minusSeconds(7200));
    assertThat(OlderThan.beforeTimestamp(" 36h ", NOW)).isEqualTo(NOW.minus(Duration.ofHours(36)));
    assertThat(OlderThan.beforeTimestamp("P1D", NOW)).isEqualTo(NOW.minus(Duration.ofDays(1)));
    assertThat(OlderThan.window("7d")).isEqualTo(Optional.of(Duration.ofDays(7)));
    assertThat(OlderThan.window("PT0S")).isEqualTo(Optional.of(Duration.ZERO));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-13-01T00:00:00Z", "2026-01-31", "2026-01-31T00:00:00", "2026-01-31 00:00:00Z"})
  void somethingThatLooksLikeADateButIsNoInstantIsRefusedNotReadAsADuration(String value) {
    assertThatThrownBy(() -> OlderThan.beforeTimestamp(value, NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("older_than")
        .hasMessageContaining("'" + value + "'")
        .hasMessageContaining("not an ISO instant");
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT-2H", "P-1D", "pt-1s"})
  void aNegativeIsoDurationIsRefused(String value) {
    // A negative window would put the cut-off in the future and expire the versions just written.
    assertThatThrownBy(() -> OlderThan.beforeTimestamp(value, NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + value + "'")
        .hasMessageContaining("negative");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "P", "PT", "7 fortnights", "seven days", "7", "-7d", "1e3s", "PT2X"})
  void anythingOutsideTheGrammarIsRefusedWithTheGrammar(String value) {
    assertThatThrownBy(() -> OlderThan.duration(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("older_than takes " + OlderThan.GRAMMAR + ", not '" + value + "'");
  }

  @Test
  void aWindowReachingBeforeTheEarliestInstantIsTheEarliestInstantNotAnOverflow() {
    // Duration.ofSeconds(Long.MAX_VALUE) parses, but now minus it is no Instant: no version is that old.
    assertThat(OlderThan.beforeTimestamp("PT" + Long.MAX_VALUE + "S", NOW)).isEqualTo(Instant.MIN);
  }
}
