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
 * {@code CALL lance.describe_storage_all(root => 's3a://bucket/warehouse/', pattern => '*.lance',
 * <describe_storage's policy arguments>)}: {@code lance.describe_storage} of every table of a Lance
 * directory namespace under one policy and one "now", as one row of totals per table ({@link
 * ResultRows#FLEET_DESCRIBE_SCHEMA}); small tables in one job. A table that fails is reported in
 * its row; the call itself fails only on a bad argument or an unreadable root. Deletes nothing.
 */
final class SparkDescribeStorageAllProcedure extends SparkFleetProcedure {
  static final String NAME = "describe_storage_all";

  SparkDescribeStorageAllProcedure(Clock clock) {
    super(NAME,
        "Reports the storage of every Lance table under a directory as lance.describe_storage would, small tables"
            + " in one job, one row of totals per table with its status and error.",
        CleanupOption.CATALOGUE, ResultRows.FLEET_DESCRIBE_SCHEMA, clock);
  }

  @Override
  List<Parameter> tableParameters(Map<String, DataType> givenTypes) {
    return SparkDescribeStorageProcedure.policyParameters(givenTypes);
  }

  @Override
  List<TableOutcome> outcomes(LanceMaintenance maintenance, String root, String pattern, BoundCall call) {
    return maintenance.describeStorageAllOutcomes(
        root, pattern, SparkDescribeStorageProcedure.policy(call), call.args().stringMap(SparkCleanupProcedure.OPTIONS));
  }
}
