package dev.lancemaintenance.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cli.MaintenanceCli;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cleanup --engine flink} as a user runs it, in its own JVM: the local MiniCluster starts and
 * stops inside the command, which prints its result and ends without Flink's warnings. The table is
 * small, so {@code --distribute-above 0} makes its run the job whose warnings are in question.
 */
class FlinkCommandLineIT {
  @TempDir Path workDir;

  @Test
  void cleansUpOnALocalClusterAndEndsWithoutFlinkWarnings() throws Exception {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("table"));
    table.append(10);
    table.append(10);
    long latest = table.deleteWhere("id % 2 = 0");

    Run run = runCli("cleanup", table.uri(), "--older-than", "0s", "--engine", "flink", "--parallelism", "2",
        "--distribute-above", "0");

    assertThat(run.exitCode()).as("exit code; stderr:%n%s", run.stderr()).isZero();
    assertThat(run.stdout()).contains("old_versions");
    assertThat(run.stderr()).as("stderr").doesNotContain("WARN").doesNotContain("Some data might be lost");
    assertThat(table.versions()).as("versions left").containsExactly(latest);
  }

  private Run runCli(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The test JVM's flags: heap, --add-opens and friends the CLI's launcher passes too.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> !arg.startsWith("-javaagent") && !arg.startsWith("-agentlib"))
        .forEach(command::add);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MaintenanceCli.class.getName());
    command.addAll(List.of(args));
    Path stdout = workDir.resolve("stdout.txt");
    Path stderr = workDir.resolve("stderr.txt");
    Process process =
        new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("the command line did not end within 3 minutes");
    }
    return new Run(
        process.exitValue(),
        Files.readString(stdout, StandardCharsets.UTF_8),
        Files.readString(stderr, StandardCharsets.UTF_8));
  }

  private record Run(int exitCode, String stdout, String stderr) {}
}
