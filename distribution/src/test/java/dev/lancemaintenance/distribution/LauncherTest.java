package dev.lancemaintenance.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bin/lance-maintenance}'s help names every command the launcher accepts. */
class LauncherTest {
  private static final List<String> COMMANDS =
      List.of("inspect", "cleanup", "compact", "optimize", "demo", "sql", "example");

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Launcher.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static List<String> commandsListedIn(String usage) {
    return COMMANDS.stream().filter(c -> usage.contains("\n  " + c + " ")).toList();
  }

  @Test
  void helpListsEveryCommand() {
    Run help = run("help");

    assertThat(help.exit()).isZero();
    assertThat(commandsListedIn(help.out())).isEqualTo(COMMANDS);
  }

  @Test
  void noArgumentsPrintsTheFullUsageToStderr() {
    Run none = run();

    assertThat(none.exit()).isEqualTo(2);
    assertThat(commandsListedIn(none.err())).isEqualTo(COMMANDS);
  }

  @Test
  void unknownCommandIsNamedAndTheFullUsageFollows() {
    Run unknown = run("vacuum");

    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unknown command 'vacuum'");
    assertThat(commandsListedIn(unknown.err())).isEqualTo(COMMANDS);
  }

  @Test
  void exampleCommandNamesEveryExample() {
    Run bad = run("example", "nope");

    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("spark-sql|java-notebook|scala-notebook|flink-job|flink-sql");
  }
}
