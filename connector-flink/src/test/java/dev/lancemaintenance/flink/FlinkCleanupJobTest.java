package dev.lancemaintenance.flink;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code flink run}'s main fails the program, as Flink expects, when the command line is refused. */
class FlinkCleanupJobTest {
  @Test
  void anotherEngineFailsTheProgramBeforeAnyJobIsBuilt() {
    assertThatThrownBy(() -> FlinkCleanupJob.main(new String[] {"/t.lance", "--older-than", "7d", "--engine", "spark"}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exit code 2");
  }

  @Test
  void anUnknownOptionOfTheNamedCommandFailsTheProgram() {
    assertThatThrownBy(() -> FlinkCleanupJob.main(new String[] {"compact", "/t.lance", "--older-than", "7d"}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exit code 2");
  }
}
