package dev.lancemaintenance.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FlinkCleanupJobTest {
  @Test
  void runsCleanupWhenNoCommandIsNamed() {
    assertThat(FlinkCleanupJob.commandLine(List.of("s3a://b/t.lance", "--older-than", "7d")))
        .containsExactly("cleanup", "s3a://b/t.lance", "--older-than", "7d", "--engine", "flink");
  }

  @Test
  void runsTheNamedCommandOnFlink() {
    assertThat(FlinkCleanupJob.commandLine(List.of("optimize", "/t.lance", "--dry-run")))
        .containsExactly("optimize", "/t.lance", "--dry-run", "--engine", "flink");
    assertThat(FlinkCleanupJob.commandLine(List.of("compact", "/t.lance")))
        .containsExactly("compact", "/t.lance", "--engine", "flink");
  }

  @Test
  void refusesAnotherEngine() {
    assertThatThrownBy(() -> FlinkCleanupJob.commandLine(List.of("/t.lance", "--engine", "spark")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--engine");
  }
}
