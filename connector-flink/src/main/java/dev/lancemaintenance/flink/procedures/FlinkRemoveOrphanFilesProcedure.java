package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.remove_orphan_files(`table` => '...', older_than => '7d', dry_run =>
 * false, ...)}: the Flink cleanup job with the orphan-sweep policy (no version expires; files no
 * version references, modified before the window, go) and one row of counters. Its arguments are
 * {@link CleanupOption#ORPHAN_FILES_CATALOGUE} in order; {@code older_than} and {@code dry_run} are
 * required, as for {@code sys.cleanup}, since Flink drops a misspelt argument name silently.
 */
public final class FlinkRemoveOrphanFilesProcedure extends FlinkRemoveOrphanFilesSignature {
  public static final String NAME = "remove_orphan_files";

  FlinkRemoveOrphanFilesProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    return counters(
        LanceFlinkMaintenance.removeOrphanFiles(context.getExecutionEnvironment(), call.table(), storageOptions), call);
  }
}
