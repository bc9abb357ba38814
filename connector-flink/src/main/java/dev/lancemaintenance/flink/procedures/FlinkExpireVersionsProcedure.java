package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.expire_versions(`table` => '...', older_than => '7d', dry_run => false,
 * ...)}: removes the manifests of the versions the policy expires, on the client, without the mark
 * phase; a later {@code sys.cleanup} with the same policy removes their files. One row of the
 * cleanup's counters. Its arguments are {@link dev.lancemaintenance.expire.ExpireVersionsAction#OPTIONS};
 * as for {@code sys.cleanup}, {@code older_than} and {@code dry_run} must be given (Flink SQL drops
 * a misspelt argument name).
 */
public final class FlinkExpireVersionsProcedure extends FlinkExpireVersionsSignature {
  public static final String NAME = "expire_versions";

  FlinkExpireVersionsProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    return counters(LanceFlinkMaintenance.expireVersions(call.table(), storageOptions, clock), call);
  }
}
