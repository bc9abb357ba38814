package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
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
 * {@code CALL <catalog>.sys.remove_orphan_files(`table` => '...', older_than => '7d', dry_run =>
 * false, ...)}: the Flink cleanup job with the orphan-sweep policy (no version expires; files no
 * version references, modified before the window, go) and one row of counters. Its arguments are
 * {@link CleanupOption#ORPHAN_FILES_CATALOGUE} in order; {@code older_than} and {@code dry_run} are
 * required, as for {@code sys.cleanup}, since Flink drops a misspelt argument name silently.
 */
public final class FlinkRemoveOrphanFilesProcedure extends StoreProcedure {
  public static final String NAME = "remove_orphan_files";

  FlinkRemoveOrphanFilesProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "older_than", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "dry_run", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "max_concurrent_deletes", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "delete_rate_limit", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "branch", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "allow_short_retention", type = @DataTypeHint("BOOLEAN"), isOptional = true),
        @ArgumentHint(name = "max_deletes", type = @DataTypeHint("BIGINT"), isOptional = true),
        @ArgumentHint(name = "inventory", type = @DataTypeHint("STRING"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.COUNTERS_ROW) Row[] call(
      ProcedureContext context,
      String table,
      String olderThan,
      Boolean dryRun,
      Integer maxConcurrentDeletes,
      Long deleteRateLimit,
      String branch,
      Boolean allowShortRetention,
      Long maxDeletes,
      String inventory) {
    ProcedureArgs.requireTable(table);
    Map<CleanupOption, Object> options = ProcedureArgs.given(
        Arrays.asList(olderThan, dryRun, maxConcurrentDeletes, deleteRateLimit, branch, allowShortRetention, maxDeletes,
            inventory),
        CleanupOption.ORPHAN_FILES_CATALOGUE.options().toArray(CleanupOption[]::new));
    ProcedureArgs.requireGiven(NAME, options, CleanupOption.ORPHAN_FILES_CATALOGUE.options());
    CleanupResult result = CleanupOption.applyTo(
            LanceFlinkMaintenance.removeOrphanFiles(context.getExecutionEnvironment(), table, storageOptions), options,
            clock.instant())
        .execute();
    return new Row[] {ResultRows.counters(result)};
  }
}
