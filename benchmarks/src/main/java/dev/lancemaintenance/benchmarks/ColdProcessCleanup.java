package dev.lancemaintenance.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BiFunction;

/**
 * A cleanup in a fresh process, timed from spawn to exit: what a user of a command line waits for
 * on every run, JVM start, class loading and a cold JIT included. {@code cli-cold} is {@code
 * bin/lance-maintenance cleanup}; {@code sdk-cold} is a JVM that opens the table with the official
 * SDK and runs its {@code cleanupWithPolicy}, nothing else (the benchmark's own classpath, which
 * the SDK's classes are a small part of, and its JVM flags).
 */
final class ColdProcessCleanup implements SelfMeasuring {
  private final String name;
  private final BiFunction<Table, Long, List<String>> command;
  private final Map<String, String> environment;

  private ColdProcessCleanup(String name, BiFunction<Table, Long, List<String>> command, Map<String, String> environment) {
    this.name = name;
    this.command = command;
    this.environment = environment;
  }

  /** {@code bin/lance-maintenance} of the checkout (or distribution) at {@code home}, its default JVM flags. */
  static ColdProcessCleanup cli(Path home) {
    return cli(home, "cli-cold", Map.of());
  }

  /**
   * {@code bin/lance-maintenance} with the JVM's tiered compilation up to C2 ({@code
   * -XX:TieredStopAtLevel=4} in {@code LANCE_MAINTENANCE_JAVA_OPTS}), what a long cleanup is told to
   * set: the default stops at C1.
   */
  static ColdProcessCleanup cliTiered(Path home) {
    return cli(home, "cli-tiered-cold", Map.of("LANCE_MAINTENANCE_JAVA_OPTS", "-XX:TieredStopAtLevel=4"));
  }

  private static ColdProcessCleanup cli(Path home, String name, Map<String, String> environment) {
    Path script = home.resolve("bin/lance-maintenance");
    if (!Files.isExecutable(script)) {
      throw new IllegalStateException("cli-cold needs " + script + " (set -Dlance.maintenance.home)");
    }
    return new ColdProcessCleanup(name, (table, beforeVersion) -> List.of(
        script.toString(), "cleanup", table.localRoot().orElseThrow().toString(),
        // No age limit, as the SDK's policy: the version cutoff alone decides.
        "--older-than", "0s", "--before-version", Long.toString(beforeVersion)), environment);
  }

  static ColdProcessCleanup sdk() {
    return new ColdProcessCleanup("sdk-cold", (table, beforeVersion) -> {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
          .filter(arg -> !arg.startsWith("-agentlib")).toList());
      command.addAll(List.of("-cp", System.getProperty("java.class.path"), SdkCleanup.class.getName(),
          table.localRoot().orElseThrow().toString(), Long.toString(beforeVersion)));
      return command;
    }, Map.of());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public RunSample measure(Table table, long beforeVersion) {
    List<String> line = command.apply(table, beforeVersion);
    try {
      Path log = Files.createTempFile("lance-bench-" + name, ".log");
      try {
        long start = System.nanoTime();
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        int status = process.waitFor();
        long wall = System.nanoTime() - start;
        if (status != 0) {
          throw new IllegalStateException(name + " exited with " + status + ": " + line + "\n"
              + Files.readString(log, StandardCharsets.UTF_8));
        }
        return new RunSample(wall, 0, -1, OptionalLong.empty(), 0, OptionalLong.empty(), false);
      } finally {
        Files.deleteIfExists(log);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + name, e);
    }
  }
}
