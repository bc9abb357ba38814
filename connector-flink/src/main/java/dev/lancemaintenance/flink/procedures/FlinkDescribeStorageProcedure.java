package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.report.ReportWindows;
import dev.lancemaintenance.report.StorageReport;
import java.time.Clock;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.describe_storage(`table` => '...', windows => '0s,1d,7d', older_than =>
 * '7d', ...)}: the storage report as rows, the same rows as Spark's {@code lance.describe_storage}
 * (section, name, versions, files, bytes, detail), computed by the report's stages as Flink jobs.
 * The policy arguments are {@code sys.cleanup_files}' (the cleanup's without its run settings), so
 * the report is about exactly the cleanup they describe. Deletes nothing.
 */
public final class FlinkDescribeStorageProcedure extends StoreProcedure {
  public static final String NAME = "describe_storage";

  FlinkDescribeStorageProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "windows", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "before_version", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "delete_unverified", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "error_if_tagged_old_versions", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "clean_referenced_branches", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "branch", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "allow_short_retention", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "retain_last", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "inventory", type = @DataTypeHint("STRING"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.STORAGE_ROW) Row[] call(
      ProcedureContext context,
      String table,
      String windows,
      String olderThan,
      Long beforeVersion,
      Boolean deleteUnverified,
      Boolean errorIfTaggedOldVersions,
      Boolean cleanReferencedBranches,
      String branch,
      Boolean allowShortRetention,
      Integer retainLast,
      String inventory) {
    ProcedureArgs.requireTable(table);
    Map<CleanupOption, Object> policy = ProcedureArgs.policy(
        olderThan, beforeVersion, deleteUnverified, errorIfTaggedOldVersions, cleanReferencedBranches, branch,
        allowShortRetention, retainLast, inventory);
    StorageReport report = LanceFlinkMaintenance.describeStorage(context.getExecutionEnvironment(), table, policy,
        windows == null ? ReportWindows.DEFAULT_WINDOWS : ReportWindows.parse(windows), storageOptions, clock);
    return report.rows().stream().map(ResultRows::storage).toArray(Row[]::new);
  }
}
