package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.compact(`table` => '...', target_rows_per_fragment => ..., ...)}, the
 * arguments being the compaction options ({@link CompactionOption}, in catalogue order): runs the
 * Flink compaction job through the procedure context's environment, commits in this client and
 * returns one row of {@code CompactResult.namedCounters()}. The Lance SDK's storage options are the
 * catalog's {@code sdk.*} options.
 */
public final class FlinkCompactProcedure extends FlinkCompactSignature {
  public static final String NAME = "compact";

  FlinkCompactProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    String table = call.table();
    CompactResult result = CompactionOption.applyTo(
            LanceFlinkMaintenance.compact(context.getExecutionEnvironment(), table, sdkStorageOptions),
            call.options(CompactionOption.class))
        .execute();
    return new Row[] {ResultRows.named(result.namedCounters())};
  }
}
