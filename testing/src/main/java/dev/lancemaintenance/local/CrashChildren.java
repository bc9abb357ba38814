package dev.lancemaintenance.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The child JVMs of one crash-matrix class, each started one case ahead: while a case's child runs
 * to its crash point and the rerun and checks follow, the next child's JVM and engine (a Spark
 * session, a Flink MiniCluster) come up and wait on stdin for their case, so start-up overlaps the
 * case before instead of adding to it. A child reads its case with {@link #awaitCase()}; one never
 * handed a case ends when its stdin closes (the suite ended, or died).
 */
public final class CrashChildren implements AutoCloseable {
  private final Class<?> main;
  private Process spare;

  /** Children running {@code main} (a {@code main} that starts its engine, then calls {@link #awaitCase()}). */
  public CrashChildren(Class<?> main) {
    this.main = main;
  }

  /**
   * A child that got its case ({@code arguments}, one line on its stdin), the spare if one is up;
   * when {@code anotherFollows}, the next spare starts now, beside this case.
   */
  Process handCase(List<String> arguments, boolean anotherFollows) throws IOException {
    Process child = spare != null ? spare : start();
    spare = anotherFollows ? start() : null;
    Writer in = new java.io.OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
    in.write(String.join("\t", arguments) + "\n");
    in.flush();
    return child;
  }

  /**
   * In a child, once its engine is up: the case the suite handed it ({@code <table> <cut-off epoch
   * ms> [engine arguments] <crash point>}). Exits the JVM when stdin closes without one.
   */
  public static List<String> awaitCase() {
    try {
      String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      if (line == null) {
        // A spare the suite did not need: no case will come.
        System.exit(0);
      }
      return List.of(line.split("\t"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the case from stdin", e);
    }
  }

  /** This JVM's {@code java}, class path and module openings running {@code main}. */
  private Process start() throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> arg.startsWith("--add-opens") || arg.startsWith("--add-exports"))
        .forEach(command::add);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  /** Kills the spare, if one is waiting. */
  @Override
  public void close() {
    if (spare != null) {
      spare.destroyForcibly();
      try {
        spare.waitFor(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      spare = null;
    }
  }
}
