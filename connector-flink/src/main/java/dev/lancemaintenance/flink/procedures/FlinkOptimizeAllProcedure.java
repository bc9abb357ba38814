package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.optimize_all(root => '...', `pattern` => '*.lance', <the arguments of
 * sys.optimize but table>)}: {@code sys.optimize} of every table of a Lance directory namespace,
 * the small ones in one Flink job, with the same arguments ({@link OptimizeAction#OPTIONS}, and the
 * same two required, for the same reason). One row per table: table, status, the optimize counters
 * (NULL for a table that did not run), error. The compactions open the tables with the catalog's
 * {@code sdk.*} options, the cleanups with its {@code storage.*} options. PATTERN is reserved in
 * Flink SQL (MATCH_RECOGNIZE): quote it.
 */
public final class FlinkOptimizeAllProcedure extends FlinkOptimizeAllSignature {
  public static final String NAME = "optimize_all";

  FlinkOptimizeAllProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) throws Exception {
    String root = call.root();
    return ResultRows.fleet(LanceFlinkMaintenance.optimizeAll(context.getExecutionEnvironment(), root, call.pattern(),
        call.options(), sdkStorageOptions, storageOptions, clock), OptimizeResult.counterNames());
  }
}
