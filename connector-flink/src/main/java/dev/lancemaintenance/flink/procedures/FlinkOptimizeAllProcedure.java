package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.optimize_all(root => '...', `pattern` => '*.lance', <the arguments of
 * sys.optimize but table>)}: {@code sys.optimize} of every table of a Lance directory namespace,
 * the small ones in one Flink job, with the same arguments (and the same two required, for the same
 * reason); a test checks the annotation against {@link OptimizeAction#OPTIONS}. One row per table:
 * table, status, the optimize counters (NULL for a table that did not run), error. The compactions
 * open the tables with the catalog's {@code sdk.*} options, the cleanups with its {@code storage.*}
 * options. PATTERN is reserved in Flink SQL (MATCH_RECOGNIZE): quote it.
 */
public final class FlinkOptimizeAllProcedure implements Procedure {
  public static final String NAME = "optimize_all";

  private final Map<String, String> sdkStorageOptions;
  private final Map<String, String> hadoopOptions;
  private final Clock clock;

  FlinkOptimizeAllProcedure(Map<String, String> sdkStorageOptions, Map<String, String> hadoopOptions, Clock clock) {
    this.sdkStorageOptions = Map.copyOf(sdkStorageOptions);
    this.hadoopOptions = Map.copyOf(hadoopOptions);
    this.clock = clock;
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "root", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "pattern", type = @DataTypeHint("STRING"), isOptional = true),
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
  public @DataTypeHint(ResultRows.FLEET_OPTIMIZE_ROW) Row[] call(
      ProcedureContext context,
      String root,
      String pattern,
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
      Long deleteRateLimit) throws Exception {
    ProcedureArgs.requireRoot(root);
    Map<MaintenanceOption, Object> given = ProcedureArgs.given(Arrays.asList(
        targetRowsPerFragment, maxRowsPerGroup, maxBytesPerFile, materializeDeletions, materializeDeletionsThreshold,
        numThreads, batchSize, maxConcurrentTasks, partialProgress,
        olderThan, deleteUnverified, errorIfTaggedOldVersions, dryRun, allowShortRetention, beforeVersion,
        cleanReferencedBranches, maxConcurrentDeletes, deleteRateLimit), OptimizeAction.OPTIONS.options());
    // Required, as in sys.optimize: Flink drops a misspelt name and passes NULL as absent.
    ProcedureArgs.requireGiven(NAME, given, OptimizeAction.OPTIONS.options());
    List<TableOutcome> outcomes = LanceFlinkMaintenance.optimizeAll(context.getExecutionEnvironment(), root,
        pattern == null ? DirectoryNamespace.DEFAULT_PATTERN : pattern, given, sdkStorageOptions, hadoopOptions, clock);
    return outcomes.stream().map(outcome -> ResultRows.fleet(outcome, OptimizeResult.counterNames())).toArray(Row[]::new);
  }
}
