package dev.lancemaintenance.examples;

import dev.lancemaintenance.cli.MaintenanceCli;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code bin/lance-maintenance}: the {@code demo} command of the README, the {@code
 * sql} command (Spark SQL with the {@code lance} catalog), and every command of {@link
 * MaintenanceCli}, with all engines (local, spark) on the classpath.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) {
    MaintenanceCli.configureLogging();
    List<String> arguments = Arrays.asList(args);
    String command = arguments.isEmpty() ? "" : arguments.get(0);
    List<String> rest = arguments.isEmpty() ? arguments : arguments.subList(1, arguments.size());
    int exit =
        switch (command) {
          case "demo" -> Demo.run(rest, System.out, System.err);
          case "sql" -> SparkSql.run(rest, System.out, System.err);
          default -> MaintenanceCli.execute(arguments, System.out, System.err);
        };
    System.exit(exit);
  }
}
