package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.cleanup_all(root => '...', `pattern` => '*.lance', older_than => '7d',
 * dry_run => false, ...)}: {@code sys.cleanup} of every table of a Lance directory namespace, the
 * small ones in one Flink job, with the same arguments as {@code sys.cleanup} (and the same two
 * required, for the same reason). One row per table: table, status, the counters (NULL for a table
 * that did not run), error. PATTERN is reserved in Flink SQL (MATCH_RECOGNIZE): quote it.
 */
public final class FlinkCleanupAllProcedure extends StoreProcedure {
  public static final String NAME = "cleanup_all";

  FlinkCleanupAllProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "root", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "pattern", type = @DataTypeHint("STRING"), isOptional = true),
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
  public @DataTypeHint(ResultRows.FLEET_CLEANUP_ROW) Row[] call(
      ProcedureContext context,
      String root,
      String pattern,
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
      Boolean recordFiles) throws Exception {
    ProcedureArgs.requireRoot(root);
    Map<CleanupOption, Object> options = ProcedureArgs.everyOption(NAME,
        olderThan, beforeVersion, deleteUnverified, errorIfTaggedOldVersions, cleanReferencedBranches, dryRun,
        maxConcurrentDeletes, deleteRateLimit, branch, allowShortRetention, retainLast, maxDeletes, mode, verify,
        inventory, recordFiles);
    List<TableOutcome> outcomes = LanceFlinkMaintenance.cleanupAll(context.getExecutionEnvironment(), root,
        pattern == null ? DirectoryNamespace.DEFAULT_PATTERN : pattern, options, storageOptions, clock);
    List<Row> rows = new ArrayList<>();
    outcomes.forEach(outcome -> rows.add(ResultRows.fleet(outcome, CleanupResult.counterNames())));
    return rows.toArray(new Row[0]);
  }
}
