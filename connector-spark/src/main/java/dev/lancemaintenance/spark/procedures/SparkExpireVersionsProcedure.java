package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.expire.ExpireVersionsAction;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;

/**
 * {@code CALL lance.expire_versions(table, older_than, before_version, retain_last, dry_run,
 * error_if_tagged_old_versions, branch, options)}, its parameters generated from {@link
 * ExpireVersionsAction#CATALOGUE}: removes the manifests of the versions the policy expires, on the
 * driver, without the mark phase; a later {@code CALL lance.cleanup} with the same policy removes
 * their files. One row of the cleanup's counters ({@code old_versions}, {@code bytes_removed}, ...),
 * a dry run's included (what it would remove).
 */
final class SparkExpireVersionsProcedure extends BaseLanceProcedure {
  static final String NAME = "expire_versions";

  SparkExpireVersionsProcedure(Clock clock) {
    super(NAME,
        "Removes the manifests of the versions of a Lance table that the policy expires, without reading the"
            + " retained ones; a later lance.cleanup with the same policy removes their files.",
        ExpireVersionsAction.CATALOGUE, ResultRows.COUNTER_SCHEMA, clock);
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return Parameter.inOrder(
        List.of(SparkCleanupProcedure.TABLE),
        OptionParameters.parameters(
            ExpireVersionsAction.CATALOGUE.options(), OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN)),
        List.of(SparkCleanupProcedure.OPTIONS));
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    ExpireVersionsAction action;
    try {
      action = LanceMaintenance.of(SparkSession.active(), clock)
          .expireVersions(args.requiredString(SparkCleanupProcedure.TABLE), args.stringMap(SparkCleanupProcedure.OPTIONS));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Parameter 'table': " + e.getMessage(), e);
    }
    CleanupOption.applyTo(action,
        OptionCatalogue.only(CleanupOption.class, OptionParameters.given(call, ExpireVersionsAction.CATALOGUE)),
        clock.instant());
    return Result.of(ResultRows.COUNTER_SCHEMA, ResultRows.counterInternalRow(action.execute()));
  }
}
