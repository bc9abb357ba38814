package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Expected values are those of the Rust humantime crate's own unit tests (parse_duration). */
class HumanDurationTest {
  @Test
  void readsTheDefaultLanceWritesIntoNewTables() {
    assertThat(HumanDuration.parse("14days")).isEqualTo(Duration.ofDays(14));
  }

  @Test
  void readsEveryUnitWithHumantimesFactors() {
    assertThat(HumanDuration.parse("33ns")).isEqualTo(Duration.ofNanos(33));
    assertThat(HumanDuration.parse("78us")).isEqualTo(Duration.ofNanos(78_000));
    assertThat(HumanDuration.parse("163µs")).isEqualTo(Duration.ofNanos(163_000));
    assertThat(HumanDuration.parse("31msec")).isEqualTo(Duration.ofMillis(31));
    assertThat(HumanDuration.parse("300secs")).isEqualTo(Duration.ofSeconds(300));
    assertThat(HumanDuration.parse("100m")).isEqualTo(Duration.ofSeconds(6_000));
    assertThat(HumanDuration.parse("7hrs")).isEqualTo(Duration.ofSeconds(25_200));
    assertThat(HumanDuration.parse("52w")).isEqualTo(Duration.ofSeconds(31_449_600));
    assertThat(HumanDuration.parse("12M")).isEqualTo(Duration.ofSeconds(31_560_192));
    assertThat(HumanDuration.parse("17y")).isEqualTo(Duration.ofSeconds(536_479_200));
  }

  @Test
  void addsTermsSeparatedBySpacesOrNot() {
    assertThat(HumanDuration.parse("2h 30m")).isEqualTo(Duration.ofMinutes(150));
    assertThat(HumanDuration.parse("2h30m")).isEqualTo(Duration.ofMinutes(150));
    assertThat(HumanDuration.parse("20 min 17 nsec ")).isEqualTo(Duration.ofSeconds(1_200, 17));
    assertThat(HumanDuration.parse("1hour 12min 5s")).isEqualTo(Duration.ofSeconds(4_325));
  }

  @Test
  void refusesWhatHumantimeRefuses() {
    assertThatThrownBy(() -> HumanDuration.parse("")).hasMessageContaining("empty");
    assertThatThrownBy(() -> HumanDuration.parse("14")).hasMessageContaining("time unit needed");
    assertThatThrownBy(() -> HumanDuration.parse("14 fortnights")).hasMessageContaining("unknown time unit \"fortnights\"");
    assertThatThrownBy(() -> HumanDuration.parse("1.5h")).hasMessageContaining("invalid character");
    assertThatThrownBy(() -> HumanDuration.parse("-1d")).hasMessageContaining("expected a number");
    assertThatThrownBy(() -> HumanDuration.parse("100000000000000000000s")).hasMessageContaining("too large");
  }
}
