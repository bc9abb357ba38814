package dev.lancemaintenance.flink;

import dev.lancemaintenance.cli.MaintenanceCli;
import dev.lancemaintenance.flink.maintenance.api.FlinkMaintenanceEngine;
import java.util.Arrays;

/**
 * Main class for {@code flink run}: {@code flink run -c dev.lancemaintenance.flink.FlinkCleanupJob
 * lance-maintenance-flink.jar [cleanup|compact|optimize|remove-orphans] <table-uri> --older-than 7d [--dry-run] ...}.
 * Takes the options of the command line's command of the same name (cleanup when none is given),
 * parsed once by that command, and runs it on the {@link FlinkMaintenanceEngine}, whose environment
 * is the cluster's under {@code flink run}; prints the result. Every cleanup is a job on the cluster
 * ({@link FlinkMaintenanceEngine#underFlinkRun}) unless {@code --distribute-above N} lets a session
 * mode client clean tables of at most N versions itself. Compaction needs {@code
 * org.lance:lance-core} on the cluster's classpath.
 */
public final class FlinkCleanupJob {
  private FlinkCleanupJob() {}

  public static void main(String[] args) {
    int exitCode = MaintenanceCli.executeOn(FlinkMaintenanceEngine.underFlinkRun(), Arrays.asList(args), System.out, System.err);
    if (exitCode != 0) {
      // flink run reports a failed program by its exception, not by an exit code.
      throw new IllegalStateException("lance maintenance failed (exit code " + exitCode + "); see the message above");
    }
  }
}
