package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command lines the CLI must reject with exit code 2 before touching any table. */
class MaintenanceCliTest {
  @TempDir Path dir;

  @Test
  void noCommandIsAUsageError() {
    CliRun run = CliRun.of();

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("usage: lance-maintenance");
  }

  @Test
  void helpPrintsUsageAndSucceeds() {
    CliRun run = CliRun.of("--help");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.out()).contains("cleanup <table-uri>").contains("inspect <table-uri>");
  }

  @Test
  void unknownCommandIsAUsageErrorNamingIt() {
    CliRun run = CliRun.of("vacuum", dir.toString());

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("Unknown command 'vacuum'");
  }

  @Test
  void unknownOptionIsAUsageErrorNamingIt() {
    CliRun run = CliRun.of("cleanup", dir.toString(), "--older-then", "7d");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("Unknown option --older-then").contains("usage:");
  }

  @Test
  void badOlderThanIsAUsageErrorNamingTheValue() {
    CliRun run = CliRun.of("cleanup", dir.toString(), "--older-than", "seven days");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("'seven days'");
  }

  @Test
  void nonNumericBeforeVersionIsAUsageError() {
    CliRun run = CliRun.of("cleanup", dir.toString(), "--before-version", "v3");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("--before-version must be a whole number, not 'v3'");
  }

  @Test
  void olderThanTogetherWithBeforeTimestampIsAUsageError() {
    CliRun run = CliRun.of("cleanup", dir.toString(), "--older-than", "1d", "--before-timestamp-millis", "5");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("either --older-than or --before-timestamp-millis");
  }

  @Test
  void missingTableIsAUsageError() {
    CliRun run = CliRun.of("cleanup", "--dry-run");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("exactly one table URI");
  }

  @Test
  void missingOptionValueIsAUsageError() {
    CliRun run = CliRun.of("cleanup", dir.toString(), "--older-than");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("--older-than needs a value");
  }

  @Test
  void unknownEngineIsAUsageErrorListingTheAvailableOnes() {
    CliRun run = CliRun.of("cleanup", dir.toString(), "--engine", "hive");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("No engine 'hive'").contains("local");
  }

  @Test
  void aDirectoryThatIsNoTableFailsWithExitOneNamingIt() {
    CliRun run = CliRun.of("cleanup", dir.toString(), "--json");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).contains(dir.toString()).contains("no manifests");
    assertThat(run.json().path("error").asText()).contains("no manifests");
  }
}
