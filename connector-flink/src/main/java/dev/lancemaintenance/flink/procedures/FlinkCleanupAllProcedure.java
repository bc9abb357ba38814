package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.cleanup_all(root => '...', `pattern` => '*.lance', older_than => '7d',
 * dry_run => false, ...)}: {@code sys.cleanup} of every table of a Lance directory namespace, the
 * small ones in one Flink job, with the same arguments as {@code sys.cleanup} (and the same two
 * required, for the same reason). One row per table: table, status, the counters (NULL for a table
 * that did not run), error. PATTERN is reserved in Flink SQL (MATCH_RECOGNIZE): quote it.
 */
public final class FlinkCleanupAllProcedure extends FlinkCleanupAllSignature {
  public static final String NAME = "cleanup_all";

  FlinkCleanupAllProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) throws Exception {
    String root = call.root();
    return ResultRows.fleet(LanceFlinkMaintenance.cleanupAll(context.getExecutionEnvironment(), root, call.pattern(),
        call.options(CleanupOption.class), storageOptions, clock), CleanupResult.counterNames());
  }
}
