package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.OlderThan;
import java.time.Instant;

/**
 * The named arguments of {@code sys.cleanup}, as Flink hands them over (null when not given), and
 * how they configure an action. The one place that reads SQL arguments; names mirror the Spark
 * procedure.
 */
record ProcedureArgs(
    String table,
    String olderThan,
    Long beforeVersion,
    Boolean deleteUnverified,
    Boolean errorIfTaggedOldVersions,
    Boolean cleanReferencedBranches,
    Boolean dryRun,
    Integer maxConcurrentDeletes,
    Long deleteRateLimit,
    String branch) {

  ProcedureArgs {
    requireTable(table);
  }

  /** Every procedure's table argument: set, and a hint at the quoting Flink SQL needs. */
  static void requireTable(String table) {
    if (table == null || table.isBlank()) {
      throw new IllegalArgumentException("Parameter 'table' is not set: give the table URI, e.g. `table` => 's3a://b/t.lance' (TABLE is reserved in Flink SQL: quote it)");
    }
  }

  /** Applies every argument that was given; the others keep the action's (Lance's) defaults. */
  CleanupAction applyTo(CleanupAction action, Instant now) {
    if (olderThan != null) {
      action.beforeTimestamp(OlderThan.beforeTimestamp(olderThan, now));
    }
    if (branch != null) {
      action.branch(branch);
    }
    if (beforeVersion != null) {
      action.beforeVersion(beforeVersion);
    }
    if (deleteUnverified != null) {
      action.deleteUnverified(deleteUnverified);
    }
    if (errorIfTaggedOldVersions != null) {
      action.errorIfTaggedOldVersions(errorIfTaggedOldVersions);
    }
    if (cleanReferencedBranches != null) {
      action.cleanReferencedBranches(cleanReferencedBranches);
    }
    if (maxConcurrentDeletes != null) {
      action.maxConcurrentDeletes(maxConcurrentDeletes);
    }
    if (deleteRateLimit != null) {
      action.deleteRateLimit(deleteRateLimit);
    }
    return action.dryRun(Boolean.TRUE.equals(dryRun));
  }
}
