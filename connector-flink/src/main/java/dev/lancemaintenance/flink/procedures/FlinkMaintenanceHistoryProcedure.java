package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.runs.RunEntry;
import java.time.Clock;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.maintenance_history(`table` => '...', `limit` => 20)}: the table's
 * maintenance runs from their records, newest first, one row per run ({@link
 * ResultRows#HISTORY_ROW}); a run that died is {@code unfinished}. Runs in the client, no job.
 */
public final class FlinkMaintenanceHistoryProcedure extends StoreProcedure {
  public static final String NAME = "maintenance_history";
  static final long DEFAULT_LIMIT = 100;

  FlinkMaintenanceHistoryProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "limit", type = @DataTypeHint("BIGINT"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.HISTORY_ROW) Row[] call(ProcedureContext context, String table, Long limit) {
    ProcedureArgs.requireTable(table);
    long runs = limit == null ? DEFAULT_LIMIT : limit;
    if (runs < 1 || runs > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Procedure argument 'limit' must be at least 1, not " + runs);
    }
    return LanceFlinkMaintenance.history(table, storageOptions, clock, (int) runs).stream()
        .map(ResultRows::history).toArray(Row[]::new);
  }
}
