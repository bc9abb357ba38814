package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Mistakes a user can make on the command line (issue 12, items 3, 5, 7, 12, 13): each ends in
 * one clear line, the right exit code, a JSON {@code error} under {@code --json}, and zero deletes.
 */
class CliMistakesIT {
  @TempDir static Path workDir;
  private static PristineTable pristine;

  @BeforeAll
  static void writeTable() {
    pristine = PristineTable.ofTwoAppendsAndADelete(workDir.resolve("pristine"));
  }

  @Test
  void deleteUnverifiedWithAShortWindowIsRefusedSayingWhyAndHow() {
    Path table = pristine.copy();
    TreeSet<String> before = PristineTable.files(table);

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--delete-unverified");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).contains("retention guard").contains("--allow-short-retention").contains(table.toString());
    assertThat(run.err().lines()).as("one line").hasSize(1);
    assertThat(PristineTable.files(table)).as("refused before any delete").isEqualTo(before);
  }

  @Test
  void liftingTheGuardExplicitlyRestoresLancesRule() throws IOException {
    Path table = pristine.copy();
    // A writer's data file that no commit names yet, older than the latest commit.
    Path orphan = Files.writeString(table.resolve("data").resolve("unreferenced.lance"), "never committed");
    LanceTableFixture.open(table).append(5);

    CliRun allowed = CliRun.of(
        "cleanup", table.toString(), "--older-than", "0s", "--delete-unverified", "--allow-short-retention");

    assertThat(allowed.exitCode()).as("%s", allowed).isZero();
    assertThat(orphan).as("with the guard lifted, delete_unverified deletes it, as Lance does").doesNotExist();
  }

  @Test
  void versionPruningWithAZeroWindowStaysValid() {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "0s", "--dry-run");

    assertThat(run.exitCode()).as("%s", run).isZero();
  }

  @Test
  void anOptionGivenTwiceIsAUsageErrorNamingIt() {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "30d", "--older-than", "0s");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("--older-than is given more than once");
  }

  @ParameterizedTest
  @ValueSource(strings = {"100000000000d", "2999-01-01T00:00:00Z", "1500-01-01T00:00:00Z"})
  void cutoffsBeyondTheNanosecondRangeAreInfinities(String cutoff) {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--older-than", cutoff, "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.out()).doesNotContain("overflow");
    long expected = cutoff.startsWith("2999") ? 2 : 0;
    assertThat(run.json().get("old_versions").asLong()).as("%s", run).isEqualTo(expected);
  }

  @Test
  void aDurationTooLargeForAnyClockIsOneUsageLine() {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "99999999999999999999d");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("older_than").contains("99999999999999999999d").doesNotContain("NumberFormatException");
  }

  @Test
  void theOneDurationGrammarOfTheTablesConfigWorksOnTheCommandLine() {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "14days", "--dry-run");

    assertThat(run.exitCode()).as("%s", run).isZero();
  }

  @Test
  void parallelismZeroIsAUsageError() {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--parallelism", "0");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("--parallelism");
  }

  @Test
  void aMisspeltEngineOptionIsAUsageErrorNamingIt() {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--engine-option", "paralelism=4", "--dry-run");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.err()).contains("'paralelism'").contains("parallelism");
  }

  @Test
  void jsonFailuresAreOneObjectWithAnError() {
    CliRun badCutoff = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "soon", "--json");
    assertThat(badCutoff.exitCode()).as("%s", badCutoff).isEqualTo(2);
    assertThat(badCutoff.json().get("error").asText()).contains("soon");

    CliRun badUri = CliRun.of("cleanup", "s3a://AKIAEXAMPLE:SECRETVALUE@bucket/t.lance", "--json");
    assertThat(badUri.exitCode()).as("%s", badUri).isEqualTo(2);
    assertThat(badUri.json().get("error").asText()).contains("credentials");

    CliRun notATable = CliRun.of("cleanup", workDir.resolve("missing").toString(), "--json");
    assertThat(notATable.exitCode()).as("%s", notATable).isEqualTo(1);
    assertThat(notATable.json().get("error").asText()).contains("missing");

    CliRun inspect = CliRun.of("inspect", workDir.resolve("missing").toString(), "--json");
    assertThat(inspect.exitCode()).as("%s", inspect).isEqualTo(1);
    assertThat(inspect.json().get("error").asText()).contains("missing");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "s3a://AKIAEXAMPLE:SECRETVALUE@bucket/t.lance",
      "s3a://AKIAEXAMPLE:SECRET/VALUE@bucket/t.lance",
      "s3a://AKIAEXAMPLE:SECRET%2FVALUE@bucket/t.lance"})
  void credentialsInTheUriAreRefusedAndNeverPrinted(String uri) {
    for (String[] args : new String[][] {
        {"cleanup", uri}, {"cleanup", uri, "--dry-run"}, {"inspect", uri}, {"cleanup", uri, "--json", "--verbose"}}) {
      CliRun run = CliRun.of(args);

      assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
      assertThat(run.err() + run.out()).contains("credentials").contains("fs.s3a.access.key")
          .doesNotContain("SECRET").doesNotContain("AKIAEXAMPLE");
    }
  }

  @Test
  void secretsGivenAsConfNeverAppearInOutput() {
    CliRun run = CliRun.of("cleanup", workDir.resolve("missing").toString(), "--verbose", "--json",
        "--conf", "fs.s3a.secret.key=SECRETVALUE", "--conf", "fs.s3a.access.key=AKIAEXAMPLE");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err() + run.out()).doesNotContain("SECRETVALUE").doesNotContain("AKIAEXAMPLE");
  }

  @Test
  void inspectOfWhatIsNoTableFails() throws IOException {
    Path file = Files.writeString(workDir.resolve("plain.txt"), "not a table");
    Path emptyDir = Files.createDirectories(workDir.resolve("empty-dir"));
    for (Path path : new Path[] {workDir.resolve("missing"), file, emptyDir}) {
      CliRun run = CliRun.of("inspect", path.toString());

      assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
      assertThat(run.err()).contains(path.getFileName().toString()).contains("not a Lance table");
      assertThat(run.err().lines()).as("one line").hasSize(1);
    }
  }

  @Test
  void anErrorIsOneLineAndVerboseAddsTheTrace() {
    CliRun plain = CliRun.of("cleanup", workDir.resolve("missing").toString());
    CliRun verbose = CliRun.of("cleanup", workDir.resolve("missing").toString(), "--verbose");

    assertThat(plain.err().lines()).as("%s", plain).hasSize(1);
    assertThat(verbose.err()).contains("\tat ");
  }
}
