package dev.lancemaintenance.distribution;

import dev.lancemaintenance.cli.CliLogging;
import dev.lancemaintenance.cli.MaintenanceCli;
import dev.lancemaintenance.examples.Examples;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code bin/lance-maintenance}: the {@code demo} command of the README, the {@code
 * sql} command (Spark SQL with the {@code lance} catalog), the {@code example} command (one of the
 * runnable examples), and every command of {@link MaintenanceCli}, with all engines (local, spark,
 * flink) on the classpath. Help and usage messages list all of them.
 */
public final class Launcher {
  static final String COMMANDS =
      "\n  " + Demo.USAGE + "\n\n"
          + "  " + SparkSql.USAGE + "\n\n"
          + "  " + Examples.USAGE + "\n";

  private static final String SLF4J_PROVIDER = "slf4j.provider";
  private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

  private Launcher() {}

  public static void main(String[] args) {
    // The distribution's one SLF4J binding, named, so that SLF4J does not look for bindings in
    // every jar of lib/ (some 300: their first search costs a cold run a third of a second).
    // (SLF4J then says which binding it loads, at INFO level, on every run: its warnings suffice.)
    if (System.getProperty(SLF4J_PROVIDER) == null) {
      System.setProperty(SLF4J_PROVIDER, "org.slf4j.simple.SimpleServiceProvider");
      if (System.getProperty(SLF4J_VERBOSITY) == null) {
        System.setProperty(SLF4J_VERBOSITY, "WARN");
      }
    }
    CliLogging.configure(Arrays.asList(args));
    System.exit(run(Arrays.asList(args), System.out, System.err));
  }

  static int run(List<String> arguments, PrintStream out, PrintStream err) {
    String command = arguments.isEmpty() ? "" : arguments.get(0);
    List<String> rest = arguments.isEmpty() ? arguments : arguments.subList(1, arguments.size());
    return switch (command) {
      case "demo" -> Demo.run(rest, out, err);
      case "sql" -> SparkSql.run(rest, out, err);
      case "example" -> Examples.run(rest, err);
      default -> MaintenanceCli.execute(arguments, out, err, COMMANDS);
    };
  }
}
