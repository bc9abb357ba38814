package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.ProgressSnapshot;
import dev.lancemaintenance.cleanup.ProgressSnapshot.Work;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The words of a progress reading, on a terminal bar and in a plain line. */
class ProgressLineTest {
  private static ProgressSnapshot sweeping(long removed, long candidates, long bytes) {
    return new ProgressSnapshot("file:/t", "5/6 sweep", Work.FILES, 12, 12, 340, candidates, removed, bytes,
        Duration.ofSeconds(65), Duration.ofSeconds(4));
  }

  @Test
  void aSweepShowsItsCountsBytesRateAndEta() {
    assertThat(ProgressLine.plain(sweeping(120, 300, 1_572_864)))
        .isEqualTo("[5/6 sweep] manifests 12/12, listed 340, removed 120/300 files, 1.5 MiB freed,"
            + " 30.0 files/s, ETA 0:06, elapsed 1:05");
  }

  @Test
  void theBarAddsAGaugeOfTheStagesOwnWork() {
    assertThat(ProgressLine.bar(sweeping(75, 300, 10)))
        .isEqualTo("[#####...............]  25% " + ProgressLine.plain(sweeping(75, 300, 10)));
    assertThat(ProgressLine.bar(sweeping(0, 0, 0))).as("nothing to remove is done").startsWith("[####################] 100% ");
  }

  @Test
  void aStageWithoutATotalHasNoGaugeRateOrEta() {
    ProgressSnapshot listing = new ProgressSnapshot("file:/t", "3/6 list", Work.UNCOUNTED, 5, 5, 42, 0, 0, 0,
        Duration.ofMillis(1_500), Duration.ofMillis(500));

    assertThat(ProgressLine.bar(listing))
        .isEqualTo("[3/6 list] manifests 5/5, listed 42, removed 0/0 files, 0 B freed, elapsed 0:01");
  }

  @Test
  void bytesAndDurationsReadAsAPersonWritesThem() {
    assertThat(ProgressLine.bytes(1023)).isEqualTo("1023 B");
    assertThat(ProgressLine.bytes(1024)).isEqualTo("1.0 KiB");
    assertThat(ProgressLine.bytes(13_400L * 1024 * 1024)).isEqualTo("13.1 GiB");
    assertThat(ProgressLine.clock(Duration.ofSeconds(59))).isEqualTo("0:59");
    assertThat(ProgressLine.clock(Duration.ofSeconds(3_723))).isEqualTo("1:02:03");
  }
}
