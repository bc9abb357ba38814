package dev.lancemaintenance.flink.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.compaction.CompactionPolicy;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** When a periodic run is due: any trigger fires; the planner is asked only when it must be. */
class PeriodicSpecTest {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private static PeriodicSpec spec(Duration interval, long newVersions, long fragments) {
    return new PeriodicSpec(TableLocation.of("file:/tmp/t.lance"), StorageConf.defaults(), Map.of(), interval,
        newVersions, fragments, Duration.ofDays(7), Map.of(), CompactionPolicy.builder().targetRowsPerFragment(100).build(), LEASE);
  }

  @Test
  void fragmentsAloneNeverRunBeforeTheirCount() {
    PeriodicSpec spec = spec(Duration.ZERO, 0, 8);

    assertThat(spec.due(null, 0, 1, () -> 7)).as("first tick, 7 to merge").isFalse();
    assertThat(spec.due(null, 0, 1, () -> 8)).as("first tick, 8 to merge").isTrue();
    assertThat(spec.due(new LastRun(0, 1), 10_000, 50, () -> 3)).as("many versions later, 3 to merge").isFalse();
  }

  @Test
  void timeOrVersionsRunAtOnceTheFirstTimeAndThenWhenDue() {
    PeriodicSpec spec = spec(Duration.ofSeconds(10), 5, 0);

    assertThat(spec.due(null, 0, 1, () -> 0)).as("first tick").isTrue();
    assertThat(spec.due(new LastRun(0, 1), 9_999, 5, () -> 0)).as("9.999 s and 4 versions later").isFalse();
    assertThat(spec.due(new LastRun(0, 1), 10_000, 1, () -> 0)).as("10 s later").isTrue();
    assertThat(spec.due(new LastRun(0, 1), 1, 6, () -> 0)).as("5 versions later").isTrue();
  }

  @Test
  void thePlannerIsNotAskedWhenACheaperTriggerFires() {
    PeriodicSpec spec = spec(Duration.ofSeconds(10), 0, 8);
    AtomicInteger plans = new AtomicInteger();
    LongSupplier planner = () -> {
      plans.incrementAndGet();
      return 0;
    };

    assertThat(spec.due(new LastRun(0, 1), 10_000, 1, planner)).isTrue();
    assertThat(plans).as("plans when the interval fired").hasValue(0);
    assertThat(spec.due(new LastRun(0, 1), 1, 1, planner)).isFalse();
    assertThat(plans).as("plans when it did not").hasValue(1);
  }

  @Test
  void aSpecWithoutAnyTriggerIsRefused() {
    assertThatThrownBy(() -> spec(Duration.ZERO, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a positive interval, version count or fragment count");
  }

  @Test
  void theSpecTravelsWithItsCompactionPolicy() throws Exception {
    PeriodicSpec spec = spec(Duration.ZERO, 0, 8);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(spec);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      PeriodicSpec copy = (PeriodicSpec) in.readObject();
      assertThat(copy.compaction()).isEqualTo(spec.compaction());
      assertThat(copy.compaction().targetRowsPerFragment()).hasValue(100);
      assertThat(copy.fragmentsToCompact()).isEqualTo(8);
    }
  }
}
