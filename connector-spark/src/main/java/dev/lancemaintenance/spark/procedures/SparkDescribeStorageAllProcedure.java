package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
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
 * {@code CALL lance.describe_storage_all(root => 's3a://bucket/warehouse/', pattern => '*.lance',
 * <describe_storage's policy arguments>)}: {@code lance.describe_storage} of every table of a Lance
 * directory namespace under one policy and one "now", as one row of totals per table ({@link
 * ResultRows#FLEET_DESCRIBE_SCHEMA}); small tables in one job. A table that fails is reported in
 * its row; the call itself fails only on a bad argument or an unreadable root. Deletes nothing.
 */
final class SparkDescribeStorageAllProcedure extends BaseLanceProcedure {
  static final String NAME = "describe_storage_all";

  private final Clock clock;

  SparkDescribeStorageAllProcedure(Clock clock) {
    super(NAME,
        "Reports the storage of every Lance table under a directory as lance.describe_storage would, small tables"
            + " in one job, one row of totals per table with its status and error.",
        CleanupOption.CATALOGUE, ResultRows.FLEET_DESCRIBE_SCHEMA);
    this.clock = clock;
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    List<Parameter> parameters = new ArrayList<>(List.of(SparkCleanupAllProcedure.ROOT, SparkCleanupAllProcedure.PATTERN));
    parameters.addAll(SparkDescribeStorageProcedure.policyParameters(givenTypes));
    return parameters;
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    List<TableOutcome> outcomes = LanceMaintenance.of(SparkSession.active(), clock).describeStorageAllOutcomes(
        args.requiredString(SparkCleanupAllProcedure.ROOT),
        SparkCleanupAllProcedure.pattern(call),
        SparkDescribeStorageProcedure.policy(call),
        args.stringMap(SparkCleanupProcedure.OPTIONS));
    return new Result(ResultRows.FLEET_DESCRIBE_SCHEMA, ResultRows.fleetInternalRows(ResultRows.FLEET_DESCRIBE_SCHEMA, outcomes));
  }
}
