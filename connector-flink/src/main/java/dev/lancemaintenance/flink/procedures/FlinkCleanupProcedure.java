package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.cleanup(`table` => '...', older_than => '7d', ...)}: runs the Flink
 * cleanup job through the procedure context's environment and returns one row of counters (in a
 * dry run, the counters of what would go; {@code sys.cleanup_files} lists those files).
 */
public final class FlinkCleanupProcedure extends StoreProcedure {
  public static final String NAME = "cleanup";

  FlinkCleanupProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  /**
   * Flink 2.2 drops a named argument it does not know ({@code dryrun => true}) and hands a NULL and
   * an omitted argument alike as null, before a procedure sees the call, so neither can be told
   * here. The two arguments whose loss would turn a look into a delete are therefore required:
   * {@code older_than} and {@code dry_run} (declared optional so that the error is ours and names
   * them, not Flink's "DEFAULT is only allowed for optional parameters").
   */
  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "before_version", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "delete_unverified", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "error_if_tagged_old_versions", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "clean_referenced_branches", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "max_concurrent_deletes", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "delete_rate_limit", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "branch", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "allow_short_retention", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "retain_last", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "max_deletes", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "mode", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "verify", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "inventory", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "record_files", type = @DataTypeHint("BOOLEAN"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.COUNTERS_ROW) Row[] call(
      ProcedureContext context,
      String table,
      String olderThan,
      Long beforeVersion,
      Boolean deleteUnverified,
      Boolean errorIfTaggedOldVersions,
      Boolean cleanReferencedBranches,
      Boolean dryRun,
      Integer maxConcurrentDeletes,
      Long deleteRateLimit,
      String branch,
      Boolean allowShortRetention,
      Integer retainLast,
      Long maxDeletes,
      String mode,
      Boolean verify,
      String inventory,
      Boolean recordFiles) {
    ProcedureArgs.requireTable(table);
    Map<CleanupOption, Object> options = ProcedureArgs.everyOption(NAME,
        olderThan, beforeVersion, deleteUnverified, errorIfTaggedOldVersions, cleanReferencedBranches, dryRun,
        maxConcurrentDeletes, deleteRateLimit, branch, allowShortRetention, retainLast, maxDeletes, mode, verify,
        inventory, recordFiles);
    CleanupResult result = CleanupOption.applyTo(
            LanceFlinkMaintenance.cleanup(context.getExecutionEnvironment(), table, storageOptions), options, clock.instant())
        .execute();
    return new Row[] {ResultRows.counters(result)};
  }
}
