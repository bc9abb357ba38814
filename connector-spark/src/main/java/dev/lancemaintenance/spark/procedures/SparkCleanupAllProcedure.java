package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;

/**
 * {@code CALL lance.cleanup_all(root => 's3a://bucket/warehouse/', pattern => '*.lance', <every
 * cleanup argument>)}: {@code lance.cleanup} of every table of a Lance directory namespace, with
 * the same arguments (generated from the same catalogue) and one cutoff for all. One row per table
 * ({@link ResultRows#FLEET_CLEANUP_SCHEMA}); in a dry run the counters are what would go (list one
 * table's files with {@code lance.cleanup(..., dry_run => true)}). A table that fails or is refused
 * is reported in its row; the call itself fails only on a bad argument or an unreadable root, before
 * any table runs.
 */
final class SparkCleanupAllProcedure extends SparkFleetProcedure {
  static final String NAME = "cleanup_all";

  SparkCleanupAllProcedure(Clock clock) {
    super(NAME,
        "Cleans up every Lance table under a directory as lance.cleanup would, small tables in one job,"
            + " one row per table with its status, counters and error.",
        CleanupOption.CATALOGUE, ResultRows.FLEET_CLEANUP_SCHEMA, clock);
  }

  @Override
  List<Parameter> tableParameters(Map<String, DataType> givenTypes) {
    return SparkCleanupProcedure.optionParameters(OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN));
  }

  @Override
  List<TableOutcome> outcomes(LanceMaintenance maintenance, String root, String pattern, BoundCall call) {
    return maintenance.cleanupAllOutcomes(
        root, pattern, SparkCleanupProcedure.options(call), call.args().stringMap(SparkCleanupProcedure.OPTIONS));
  }
}
