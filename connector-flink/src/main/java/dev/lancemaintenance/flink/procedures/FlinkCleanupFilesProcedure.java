package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
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
 * {@code CALL <catalog>.sys.cleanup_files(`table` => '...', older_than => '7d', ...)}: a dry run of
 * {@code sys.cleanup} that returns one row per file a real run would remove (path, kind, bytes,
 * reason). A separate procedure because a Flink procedure has one output type; Flink's procedure
 * API returns an array, so the rows are gathered in memory here (the CLI and the Java API stream
 * them instead).
 */
public final class FlinkCleanupFilesProcedure extends StoreProcedure {
  public static final String NAME = "cleanup_files";

  FlinkCleanupFilesProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
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
  public @DataTypeHint(ResultRows.FILE_ROW) Row[] call(
      ProcedureContext context,
      String table,
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
    Map<CleanupOption, Object> options = ProcedureArgs.policy(
        olderThan, beforeVersion, deleteUnverified, errorIfTaggedOldVersions, cleanReferencedBranches, branch,
        allowShortRetention, retainLast, inventory);
    List<Row> rows = new ArrayList<>();
    CleanupOption.applyTo(
            LanceFlinkMaintenance.cleanup(context.getExecutionEnvironment(), table, storageOptions), options, clock.instant())
        .dryRun(true)
        .onRemovedFile(file -> rows.add(ResultRows.file(file)))
        .execute();
    return rows.toArray(Row[]::new);
  }
}
