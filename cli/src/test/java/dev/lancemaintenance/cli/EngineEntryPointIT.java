package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.local.LocalMaintenanceEngine;
import dev.lancemaintenance.testing.CapturedRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MaintenanceCli#executeOn}, what an engine's own entry point ({@code flink run}) calls: the
 * arguments are parsed once by the command they name (cleanup when none is named) and the action
 * is made by the engine handed in, here the local one, on a real table.
 */
class EngineEntryPointIT {
  private static PristineTable pristine;

  @BeforeAll
  static void writeTable(@TempDir Path workDir) {
    pristine = PristineTable.ofTwoAppendsAndADelete(workDir.resolve("pristine"));
  }

  @Test
  void withoutACommandItCleansUpOnTheEngineHandedIn() {
    CliRun run = onLocal(pristine.root().toString(), "--older-than", "0s", "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("mode").asText()).isEqualTo("dry_run");
    assertThat(run.json().get("old_versions").asLong()).as("versions 1 and 2 would go").isEqualTo(2);
  }

  @Test
  void aNamedCommandTakesItsOwnOptions() {
    CliRun run = onLocal("compact", pristine.root().toString(), "--target-rows-per-fragment", "1000", "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("mode").asText()).isEqualTo("dry_run");
    assertThat(run.json().has("fragments_to_merge")).as("a compaction plan").isTrue();
  }

  @Test
  void anotherEngineIsAUsageErrorAndNothingIsDeleted() {
    Path table = pristine.copy();
    var before = PristineTable.files(table);

    CliRun run = onLocal(table.toString(), "--older-than", "0s", "--engine", "spark");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("runs on the local engine only; drop --engine spark");
    assertThat(PristineTable.files(table)).isEqualTo(before);
    assertThat(onLocal(table.toString(), "--older-than", "0s", "--engine", "local", "--dry-run").exitCode())
        .as("naming its own engine").isZero();
  }

  @Test
  void anOptionTheEngineDoesNotReadIsAUsageErrorNamingIt() {
    CliRun run = onLocal(pristine.root().toString(), "--older-than", "0s", "--engine-option", "master=local[2]");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("The local engine has no option 'master'");
  }

  private static CliRun onLocal(String... args) {
    CapturedRun run = CapturedRun.of((out, err) -> MaintenanceCli.executeOn(new LocalMaintenanceEngine(), List.of(args), out, err));
    return new CliRun(run.exit(), run.out(), run.err());
  }
}
