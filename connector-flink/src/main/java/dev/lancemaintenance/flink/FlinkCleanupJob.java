package dev.lancemaintenance.flink;

import dev.lancemaintenance.cli.MaintenanceCli;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Main class for {@code flink run}: {@code flink run -c dev.lancemaintenance.flink.FlinkCleanupJob
 * lance-maintenance-flink.jar [cleanup] <table-uri> --older-than 7d [--dry-run] ...}. Takes the
 * options of the command line's {@code cleanup} (it is that command, on the {@code flink} engine,
 * whose environment is the cluster's under {@code flink run}) and prints the result.
 */
public final class FlinkCleanupJob {
  private FlinkCleanupJob() {}

  public static void main(String[] args) {
    int exitCode = MaintenanceCli.execute(commandLine(Arrays.asList(args)), System.out, System.err);
    if (exitCode != 0) {
      // flink run reports a failed program by its exception, not by an exit code.
      throw new IllegalStateException("lance cleanup failed (exit code " + exitCode + "); see the message above");
    }
  }

  /** {@code cleanup <args> --engine flink}, whether or not the caller wrote {@code cleanup}. */
  static List<String> commandLine(List<String> args) {
    List<String> line = new ArrayList<>();
    line.add("cleanup");
    line.addAll(!args.isEmpty() && args.get(0).equals("cleanup") ? args.subList(1, args.size()) : args);
    if (args.contains("--engine")) {
      throw new IllegalArgumentException("FlinkCleanupJob always runs on the flink engine; drop --engine");
    }
    line.add("--engine");
    line.add("flink");
    return line;
  }
}
