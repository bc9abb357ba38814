package dev.lancemaintenance.spark.connect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The PySpark module ({@code connector-spark/python/lance_maintenance.py}) and its tests, run by the
 * machine's {@code python3}. PySpark is not installed there (no package index), so what runs is the
 * module's Spark Connect fallback, whose sessions need only {@code sql()}.
 */
public final class PySparkModule {
  private static final Path MODULE = Path.of("connector-spark", "python", "lance_maintenance.py");

  private PySparkModule() {}

  /** The module's directory, found from the working directory up (a module of the repository or its root). */
  static Path directory() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(MODULE))) {
        return dir.resolve(MODULE).getParent();
      }
    }
    throw new IllegalStateException("no " + MODULE + " above " + Path.of("").toAbsolutePath());
  }

  /** Runs {@code python3 args...} in the module's directory; fails with its output unless it exits 0. */
  public static String python(Map<String, String> environment, String... args) {
    List<String> command = new ArrayList<>(List.of("python3"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory().toFile()).redirectErrorStream(true);
    builder.environment().putAll(environment);
    // No __pycache__ in the source tree.
    builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    try {
      Process process = builder.start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new AssertionError("python3 " + String.join(" ", args) + " failed:\n" + output);
      }
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run python3 (needed for the PySpark module's tests)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The statements the module sends over a Spark Connect session for a dry run, then a cleanup, of
   * {@code table} ({@code test_lance_maintenance.recorded_calls}), one per line.
   */
  static List<String> recordedCalls(String table, String olderThan, long beforeVersion) {
    String script = "import sys, test_lance_maintenance as t\n"
        + "for statement in t.recorded_calls(sys.argv[1], sys.argv[2], int(sys.argv[3])):\n"
        + "    print(statement)\n";
    return python(Map.of(), "-c", script, table, olderThan, Long.toString(beforeVersion)).lines().toList();
  }
}
