package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.maintenance_history(`table` => '...', `limit` => 20)}: the table's
 * maintenance runs from their records, newest first, one row per run ({@link
 * ResultRows#HISTORY_ROW}); a run that died is {@code unfinished}. Runs in the client, no job.
 */
public final class FlinkMaintenanceHistoryProcedure extends FlinkMaintenanceHistorySignature {
  public static final String NAME = "maintenance_history";
  static final long DEFAULT_LIMIT = 100;

  FlinkMaintenanceHistoryProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    String table = call.table();
    long runs = call.argument("limit", Long.class).orElse(DEFAULT_LIMIT);
    if (runs < 1 || runs > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Procedure argument 'limit' must be at least 1, not " + runs);
    }
    return LanceFlinkMaintenance.history(table, storageOptions, clock, (int) runs).stream()
        .map(ResultRows::history).toArray(Row[]::new);
  }
}
