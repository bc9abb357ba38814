package dev.lancemaintenance.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a contender in a child JVM with a capped heap ({@code -Xmx512m} for {@code huge}: the point
 * is that the engine completes where holding every path in one process would not fit). The child
 * times itself; the JVM start is not part of the sample.
 */
final class ChildJvmCleanup implements SelfMeasuring {
  private final String engine;
  private final String xmx;

  ChildJvmCleanup(String engine, String xmx) {
    this.engine = engine;
    this.xmx = xmx;
  }

  @Override
  public String name() {
    return engine + "@" + xmx;
  }

  @Override
  public RunSample measure(Table table, long beforeVersion) {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.add("-Xmx" + xmx);
    // The parent's flags (add-opens for Arrow and Spark), minus its own heap settings.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> !arg.startsWith("-Xmx") && !arg.startsWith("-Xms") && !arg.startsWith("-agentlib"))
        .forEach(command::add);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchmarkRunner.class.getName(),
        "--single", engine, "--table", table.localRoot().orElseThrow().toString(),
        "--before-version", Long.toString(beforeVersion)));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      Optional<String> result = Optional.empty();
      try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (line.startsWith("RESULT ")) {
            result = Optional.of(line);
          } else {
            System.out.println("    [" + name() + "] " + line);
          }
        }
      }
      int status = process.waitFor();
      if (status != 0 || result.isEmpty()) {
        throw new IllegalStateException(name() + " child JVM exited with " + status + " and no result");
      }
      return RunSample.decode(result.get());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + name(), e);
    }
  }

  /** The java launcher of the running JVM. */
  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
