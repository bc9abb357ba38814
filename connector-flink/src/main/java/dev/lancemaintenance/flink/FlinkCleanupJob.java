package dev.lancemaintenance.flink;

import dev.lancemaintenance.cli.MaintenanceCli;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Main class for {@code flink run}: {@code flink run -c dev.lancemaintenance.flink.FlinkCleanupJob
 * lance-maintenance-flink.jar [cleanup|compact|optimize] <table-uri> --older-than 7d [--dry-run] ...}.
 * Takes the options of the command line's command of the same name (cleanup when none is given),
 * runs it on the {@code flink} engine, whose environment is the cluster's under {@code flink run},
 * and prints the result. Compaction needs {@code org.lance:lance-core} on the cluster's classpath.
 */
public final class FlinkCleanupJob {
  private static final Set<String> COMMANDS = Set.of("cleanup", "compact", "optimize");

  private FlinkCleanupJob() {}

  public static void main(String[] args) {
    int exitCode = MaintenanceCli.execute(commandLine(Arrays.asList(args)), System.out, System.err);
    if (exitCode != 0) {
      // flink run reports a failed program by its exception, not by an exit code.
      throw new IllegalStateException("lance maintenance failed (exit code " + exitCode + "); see the message above");
    }
  }

  /** {@code <command> <args> --engine flink}; the command defaults to cleanup. */
  static List<String> commandLine(List<String> args) {
    if (args.contains("--engine")) {
      throw new IllegalArgumentException("FlinkCleanupJob always runs on the flink engine; drop --engine");
    }
    boolean named = !args.isEmpty() && COMMANDS.contains(args.get(0));
    List<String> line = new ArrayList<>();
    line.add(named ? args.get(0) : "cleanup");
    line.addAll(named ? args.subList(1, args.size()) : args);
    line.add("--engine");
    line.add("flink");
    return line;
  }
}
