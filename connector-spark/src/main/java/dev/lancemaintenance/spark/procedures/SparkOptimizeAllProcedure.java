package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;

/**
 * {@code CALL lance.optimize_all(root => 's3a://bucket/warehouse/', pattern => '*.lance', <every
 * argument of lance.optimize but table>)}: {@code lance.optimize} of every table of a Lance
 * directory namespace with the same arguments (generated from the same catalogues). One row per
 * table ({@link ResultRows#FLEET_OPTIMIZE_SCHEMA}); a table that fails or is refused is reported in
 * its row; the call itself fails only on a bad argument or an unreadable root, before any table
 * runs.
 */
final class SparkOptimizeAllProcedure extends SparkFleetProcedure {
  static final String NAME = "optimize_all";

  SparkOptimizeAllProcedure(Clock clock) {
    super(NAME,
        "Optimizes every Lance table under a directory as lance.optimize would (compaction, then cleanup), small"
            + " tables in one job, one row per table with its status, counters and error.",
        OptimizeAction.OPTIONS, ResultRows.FLEET_OPTIMIZE_SCHEMA, clock);
  }

  @Override
  List<Parameter> tableParameters(Map<String, DataType> givenTypes) {
    return SparkOptimizeProcedure.parameters(OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN)).stream()
        .filter(parameter -> parameter != CompactionParameters.TABLE)
        .toList();
  }

  @Override
  List<TableOutcome> outcomes(LanceMaintenance maintenance, String root, String pattern, BoundCall call) {
    return maintenance.optimizeAllOutcomes(root, pattern, OptionParameters.given(call, OptimizeAction.OPTIONS),
        CompactionParameters.storageOptions(call.args()), call.args().stringMap(SparkOptimizeProcedure.HADOOP_OPTIONS));
  }
}
