package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.optimize(`table` => '...', <the arguments of sys.compact>, older_than =>
 * '7d', <the other cleanup options of optimize>)}, the arguments being {@link
 * OptimizeAction#OPTIONS} in order (a test checks the annotation against it): the tag pre-flight, the Flink
 * compaction job, then the Flink cleanup job; one row of {@code OptimizeResult.namedCounters()}.
 * The compaction opens the table with the catalog's {@code sdk.*} options, the cleanup with its
 * {@code storage.*} (Hadoop) options.
 */
public final class FlinkOptimizeProcedure implements Procedure {
  public static final String NAME = "optimize";

  private final Map<String, String> sdkStorageOptions;
  private final Map<String, String> hadoopOptions;
  private final Clock clock;

  FlinkOptimizeProcedure(Map<String, String> sdkStorageOptions, Map<String, String> hadoopOptions, Clock clock) {
    this.sdkStorageOptions = Map.copyOf(sdkStorageOptions);
    this.hadoopOptions = Map.copyOf(hadoopOptions);
    this.clock = clock;
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "target_rows_per_fragment", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "max_rows_per_group", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "max_bytes_per_file", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "materialize_deletions", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "materialize_deletions_threshold", type = @DataTypeHint("DOUBLE"), isOptional = true),
        @ArgumentHint(name = "num_threads", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "batch_size", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "max_concurrent_tasks", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "partial_progress", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "delete_unverified", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "error_if_tagged_old_versions", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "allow_short_retention", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "before_version", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "clean_referenced_branches", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "max_concurrent_deletes", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "delete_rate_limit", type = @DataTypeHint("BIGINT"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.OPTIMIZE_ROW) Row[] call(
      ProcedureContext context,
      String table,
      Long targetRowsPerFragment,
      Long maxRowsPerGroup,
      Long maxBytesPerFile,
      Boolean materializeDeletions,
      Double materializeDeletionsThreshold,
      Long numThreads,
      Long batchSize,
      Integer maxConcurrentTasks,
      Integer partialProgress,
      String olderThan,
      Boolean deleteUnverified,
      Boolean errorIfTaggedOldVersions,
      Boolean dryRun,
      Boolean allowShortRetention,
      Long beforeVersion,
      Boolean cleanReferencedBranches,
      Integer maxConcurrentDeletes,
      Long deleteRateLimit) {
    ProcedureArgs.requireTable(table);
    Map<MaintenanceOption, Object> given = ProcedureArgs.given(Arrays.asList(
        targetRowsPerFragment, maxRowsPerGroup, maxBytesPerFile, materializeDeletions, materializeDeletionsThreshold,
        numThreads, batchSize, maxConcurrentTasks, partialProgress,
        olderThan, deleteUnverified, errorIfTaggedOldVersions, dryRun, allowShortRetention, beforeVersion,
        cleanReferencedBranches, maxConcurrentDeletes, deleteRateLimit), OptimizeAction.OPTIONS.options());
    // Required, as in sys.cleanup: Flink drops a misspelt name and passes NULL as absent.
    ProcedureArgs.requireGiven(NAME, given, OptimizeAction.OPTIONS.options());
    OptimizeAction action =
        LanceFlinkMaintenance.optimize(context.getExecutionEnvironment(), table, sdkStorageOptions, hadoopOptions)
            .optionValues(given);
    return new Row[] {ResultRows.named(action.execute().namedCounters())};
  }
}
