package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.optimize(`table` => '...', <the arguments of sys.compact>, older_than =>
 * '7d', <the other cleanup options of optimize>)}, the arguments being {@link
 * OptimizeAction#OPTIONS} in order, {@code older_than} and {@code dry_run} required as in {@code
 * sys.cleanup}: the tag pre-flight, the Flink compaction job, then the Flink cleanup job; one row of
 * {@code OptimizeResult.namedCounters()}. The compaction opens the table with the catalog's {@code
 * sdk.*} options, the cleanup with its {@code storage.*} (Hadoop) options.
 */
public final class FlinkOptimizeProcedure extends FlinkOptimizeSignature {
  public static final String NAME = "optimize";

  FlinkOptimizeProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    String table = call.table();
    OptimizeAction action =
        LanceFlinkMaintenance.optimize(context.getExecutionEnvironment(), table, sdkStorageOptions, storageOptions)
            .optionValues(call.options());
    return new Row[] {ResultRows.named(action.execute().namedCounters())};
  }
}
