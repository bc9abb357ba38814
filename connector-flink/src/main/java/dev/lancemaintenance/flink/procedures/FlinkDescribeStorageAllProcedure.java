package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.report.StorageReport;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.describe_storage_all(root => '...', `pattern` => '*.lance', older_than =>
 * '7d', ...)}: {@code sys.describe_storage} of every table of a Lance directory namespace under one
 * policy, the small tables in one Flink job; one row of totals per table, as Spark's {@code
 * lance.describe_storage_all}. PATTERN is reserved in Flink SQL (MATCH_RECOGNIZE): quote it.
 * Deletes nothing.
 */
public final class FlinkDescribeStorageAllProcedure extends StoreProcedure {
  public static final String NAME = "describe_storage_all";

  FlinkDescribeStorageAllProcedure(Map<String, String> storageOptions, Clock clock) {
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
        @ArgumentHint(name = "branch", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "allow_short_retention", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "retain_last", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "inventory", type = @DataTypeHint("STRING"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.FLEET_DESCRIBE_ROW) Row[] call(
      ProcedureContext context,
      String root,
      String pattern,
      String olderThan,
      Long beforeVersion,
      Boolean deleteUnverified,
      Boolean errorIfTaggedOldVersions,
      Boolean cleanReferencedBranches,
      String branch,
      Boolean allowShortRetention,
      Integer retainLast,
      String inventory) throws Exception {
    ProcedureArgs.requireRoot(root);
    Map<CleanupOption, Object> policy = ProcedureArgs.policy(
        olderThan, beforeVersion, deleteUnverified, errorIfTaggedOldVersions, cleanReferencedBranches, branch,
        allowShortRetention, retainLast, inventory);
    List<TableOutcome> outcomes = LanceFlinkMaintenance.describeStorageAll(context.getExecutionEnvironment(), root,
        pattern == null ? DirectoryNamespace.DEFAULT_PATTERN : pattern, policy, storageOptions, clock);
    return outcomes.stream().map(outcome -> ResultRows.fleet(outcome, StorageReport.totalNames())).toArray(Row[]::new);
  }
}
