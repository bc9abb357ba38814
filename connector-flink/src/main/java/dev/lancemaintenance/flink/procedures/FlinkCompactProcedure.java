package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.util.Arrays;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.compact(`table` => '...', target_rows_per_fragment => ..., ...)}, the
 * arguments being the compaction options ({@link CompactionOption}, in catalogue order; a test
 * checks the annotation against it): runs
 * the Flink compaction job through the procedure context's environment, commits in this client and
 * returns one row of {@code CompactResult.namedCounters()}. The Lance SDK's storage options are the
 * catalog's {@code sdk.*} options.
 */
public final class FlinkCompactProcedure implements Procedure {
  public static final String NAME = "compact";

  private final Map<String, String> sdkStorageOptions;

  FlinkCompactProcedure(Map<String, String> sdkStorageOptions) {
    this.sdkStorageOptions = Map.copyOf(sdkStorageOptions);
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
        @ArgumentHint(name = "partial_progress", type = @DataTypeHint("INT"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.COMPACT_ROW) Row[] call(
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
      Integer partialProgress) {
    ProcedureArgs.requireTable(table);
    Map<MaintenanceOption, Object> given = ProcedureArgs.given(Arrays.asList(
        targetRowsPerFragment, maxRowsPerGroup, maxBytesPerFile, materializeDeletions, materializeDeletionsThreshold,
        numThreads, batchSize, maxConcurrentTasks, partialProgress), CompactionOption.CATALOGUE.options());
    CompactResult result = CompactionOption.applyTo(
            LanceFlinkMaintenance.compact(context.getExecutionEnvironment(), table, sdkStorageOptions),
            OptionCatalogue.only(CompactionOption.class, given))
        .execute();
    return new Row[] {ResultRows.named(result.namedCounters())};
  }
}
