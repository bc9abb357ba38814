package dev.lancemaintenance.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.CapturedRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's Spark commands end to end: the README's first command run twice in a row on the
 * same path, and the {@code sql} command's ordinary mistakes as one line each (issue 12, items 2, 7).
 */
class LauncherSparkIT {
  @TempDir Path dir;

  private static CapturedRun launch(String... args) {
    return CapturedRun.of((out, err) -> Launcher.run(List.of(args), out, err));
  }

  @Test
  void theDemoRunsTwiceInARowOnItsOwnTable() {
    String root = dir.resolve("demo").resolve("demo.lance").toString();

    CapturedRun first = launch("demo", root);
    CapturedRun second = launch("demo", root);

    assertThat(first.exit()).as("%s", first).isZero();
    assertThat(second.exit()).as("%s", second).isZero();
    assertThat(second.out()).contains("reclaimed");
  }

  @Test
  void ordinaryMistakesInSqlAreOneLineNamingTheMistake() {
    String missing = dir.resolve("missing.lance").toString();
    List<List<String>> cases = List.of(
        List.of("CALL lance.cleanup(table => '" + missing + "', older_than => '0s', dry_run => true)", "missing.lance"),
        List.of("CALL lance.cleanup(table => '" + missing + "', dryrun => true)", "dryrun"),
        List.of("CALL lance.cleanup(table => ", "PARSE_SYNTAX_ERROR"),
        List.of("CALL lance.vacuum(table => '" + missing + "')", "vacuum"));
    for (List<String> sqlAndNamed : cases) {
      CapturedRun run = launch("sql", sqlAndNamed.get(0), "--master", "local[1]");

      assertThat(run.exit()).as("%s", run).isEqualTo(1);
      assertThat(run.err()).as("%s", run).contains(sqlAndNamed.get(1));
      assertThat(run.err().lines()).as("one line: %s", run).hasSize(1);
    }
  }
}
