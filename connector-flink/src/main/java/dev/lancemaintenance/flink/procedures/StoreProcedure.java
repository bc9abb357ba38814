package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.flink.maintenance.api.FlinkCleanupAction;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Clock;
import java.util.Map;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;
import org.apache.flink.types.Row;

/**
 * A procedure of the Lance catalog: the settings the catalog was created with ({@link
 * CatalogSettings}). Each procedure extends its generated signature ({@code <Name>Signature},
 * written from the option catalogues by connector-flink-codegen), which extends this: Flink reads a
 * procedure's arguments from the hints of its {@code call} method alone.
 */
abstract class StoreProcedure implements Procedure {
  /** The Hadoop configuration of the tables' store (may hold credentials; never printed). */
  protected final Map<String, String> storageOptions;
  /** The Lance SDK's storage options, for compaction. */
  protected final Map<String, String> sdkStorageOptions;
  protected final Clock clock;

  StoreProcedure(CatalogSettings settings) {
    this.storageOptions = settings.hadoopOptions();
    this.sdkStorageOptions = settings.sdkOptions();
    this.clock = settings.clock();
  }

  /** The Flink cleanup of the call's table, as a job of the procedure context's environment. */
  protected final FlinkCleanupAction cleanupOf(ProcedureContext context, ProcedureCall call) {
    return LanceFlinkMaintenance.cleanup(context.getExecutionEnvironment(), call.table(), storageOptions);
  }

  /** {@code action} with the call's cleanup options, "now" from the catalog's clock. */
  protected final <A extends CleanupAction> A withOptions(A action, ProcedureCall call) {
    return CleanupOption.applyTo(action, call.options(CleanupOption.class), clock.instant());
  }

  /** Runs {@code action} with the call's cleanup options; its counters as the procedure's one row. */
  protected final Row[] counters(CleanupAction action, ProcedureCall call) {
    return new Row[] {ResultRows.counters(withOptions(action, call).execute())};
  }
}
