package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;

/**
 * {@code CALL lance.optimize_all(root => 's3a://bucket/warehouse/', pattern => '*.lance', <every
 * argument of lance.optimize but table>)}: {@code lance.optimize} of every table of a Lance
 * directory namespace with the same arguments (generated from the same catalogues). One row per
 * table ({@link ResultRows#FLEET_OPTIMIZE_SCHEMA}); a table that fails or is refused is reported in
 * its row; the call itself fails only on a bad argument or an unreadable root, before any table
 * runs.
 */
final class SparkOptimizeAllProcedure extends BaseLanceProcedure {
  static final String NAME = "optimize_all";

  private final Clock clock;

  SparkOptimizeAllProcedure(Clock clock) {
    super(NAME,
        "Optimizes every Lance table under a directory as lance.optimize would (compaction, then cleanup), small"
            + " tables in one job, one row per table with its status, counters and error.",
        OptimizeAction.OPTIONS, ResultRows.FLEET_OPTIMIZE_SCHEMA);
    this.clock = clock;
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    List<Parameter> parameters = new ArrayList<>(List.of(SparkCleanupAllProcedure.ROOT, SparkCleanupAllProcedure.PATTERN));
    SparkOptimizeProcedure.parameters(OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN)).stream()
        .filter(parameter -> parameter != CompactionParameters.TABLE)
        .forEach(parameters::add);
    return parameters;
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    List<TableOutcome> outcomes = LanceMaintenance.of(SparkSession.active(), clock).optimizeAllOutcomes(
        args.requiredString(SparkCleanupAllProcedure.ROOT),
        SparkCleanupAllProcedure.pattern(call),
        OptionParameters.given(call, OptimizeAction.OPTIONS),
        CompactionParameters.storageOptions(args),
        args.stringMap(SparkOptimizeProcedure.HADOOP_OPTIONS));
    return new Result(ResultRows.FLEET_OPTIMIZE_SCHEMA, ResultRows.fleetInternalRows(ResultRows.FLEET_OPTIMIZE_SCHEMA, outcomes));
  }
}
