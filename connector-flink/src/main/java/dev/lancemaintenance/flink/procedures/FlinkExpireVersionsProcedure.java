package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.expire.ExpireVersionsAction;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.expire_versions(`table` => '...', older_than => '7d', dry_run => false,
 * ...)}: removes the manifests of the versions the policy expires, on the client, without the mark
 * phase; a later {@code sys.cleanup} with the same policy removes their files. One row of the
 * cleanup's counters. As for {@code sys.cleanup}, {@code older_than} and {@code dry_run} must be
 * given (Flink SQL drops a misspelt argument name).
 */
public final class FlinkExpireVersionsProcedure extends StoreProcedure {
  public static final String NAME = "expire_versions";

  FlinkExpireVersionsProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  /** The hints follow {@link ExpireVersionsAction#OPTIONS}, in order (a test holds them to it). */
  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "before_version", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "retain_last", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "error_if_tagged_old_versions", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "branch", type = @DataTypeHint("STRING"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.COUNTERS_ROW) Row[] call(
      ProcedureContext context,
      String table,
      String olderThan,
      Long beforeVersion,
      Integer retainLast,
      Boolean dryRun,
      Boolean errorIfTaggedOldVersions,
      String branch) {
    ProcedureArgs.requireTable(table);
    Map<CleanupOption, Object> options = OptionCatalogue.only(CleanupOption.class, ProcedureArgs.given(
        Arrays.asList(olderThan, beforeVersion, retainLast, dryRun, errorIfTaggedOldVersions, branch),
        ExpireVersionsAction.OPTIONS));
    ProcedureArgs.requireGiven(NAME, options, ExpireVersionsAction.OPTIONS);
    CleanupResult result = CleanupOption.applyTo(
        LanceFlinkMaintenance.expireVersions(table, storageOptions, clock), options, clock.instant()).execute();
    return new Row[] {ResultRows.counters(result)};
  }
}
