package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.cleanup(`table` => '...', older_than => '7d', dry_run => false, ...)}:
 * runs the Flink cleanup job through the procedure context's environment and returns one row of
 * counters (in a dry run, the counters of what would go; {@code sys.cleanup_files} lists those
 * files). Its arguments are {@link CleanupOption#CATALOGUE} ({@link FlinkCleanupSignature}), with
 * {@code older_than} and {@code dry_run} required ({@link ProcedureCall#options()}).
 */
public final class FlinkCleanupProcedure extends FlinkCleanupSignature {
  public static final String NAME = "cleanup";

  FlinkCleanupProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    return counters(cleanupOf(context, call), call);
  }
}
