package dev.lancemaintenance.examples;

import dev.lancemaintenance.cli.MaintenanceCli;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code bin/lance-maintenance}: the {@code demo} command of the README, and every
 * command of {@link MaintenanceCli}, with all engines on the classpath.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) {
    MaintenanceCli.configureLogging();
    List<String> arguments = Arrays.asList(args);
    int exit =
        !arguments.isEmpty() && arguments.get(0).equals("demo")
            ? Demo.run(arguments.subList(1, arguments.size()), System.out, System.err)
            : MaintenanceCli.execute(arguments, System.out, System.err);
    System.exit(exit);
  }
}
