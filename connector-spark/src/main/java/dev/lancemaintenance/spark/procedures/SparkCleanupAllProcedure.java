package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL lance.cleanup_all(root => 's3a://bucket/warehouse/', pattern => '*.lance', <every
 * cleanup argument>)}: {@code lance.cleanup} of every table of a Lance directory namespace, with
 * the same arguments (generated from the same catalogue) and one cutoff for all. One row per table
 * ({@link ResultRows#FLEET_CLEANUP_SCHEMA}); in a dry run the counters are what would go (list one
 * table's files with {@code lance.cleanup(..., dry_run => true)}). A table that fails or is refused
 * is reported in its row; the call itself fails only on a bad argument or an unreadable root, before
 * any table runs.
 */
final class SparkCleanupAllProcedure extends BaseLanceProcedure {
  static final String NAME = "cleanup_all";

  static final Parameter ROOT = Parameter.required(
      "root", DataTypes.StringType, "the directory that holds the tables (a Lance directory namespace)");
  static final Parameter PATTERN = Parameter.optional(
      "pattern", DataTypes.StringType, "'" + DirectoryNamespace.DEFAULT_PATTERN + "'",
      "a glob over the names of the directories under root");

  private final Clock clock;

  SparkCleanupAllProcedure(Clock clock) {
    super(NAME,
        "Cleans up every Lance table under a directory as lance.cleanup would, small tables in one job,"
            + " one row per table with its status, counters and error.",
        CleanupOption.CATALOGUE, ResultRows.FLEET_CLEANUP_SCHEMA);
    this.clock = clock;
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    List<Parameter> parameters = new ArrayList<>(List.of(ROOT, PATTERN));
    parameters.addAll(SparkCleanupProcedure.optionParameters(OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN)));
    return parameters;
  }

  /** The glob of every fleet procedure: given, or the default; NULL is an error, not the default. */
  static String pattern(BoundCall call) {
    if (call.isGiven(PATTERN) && !call.args().isSet(PATTERN)) {
      throw new IllegalArgumentException("Parameter 'pattern' is NULL: give a glob or leave it out (default "
          + DirectoryNamespace.DEFAULT_PATTERN + ")");
    }
    return call.args().string(PATTERN).orElse(DirectoryNamespace.DEFAULT_PATTERN);
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    List<TableOutcome> outcomes = LanceMaintenance.of(SparkSession.active(), clock).cleanupAllOutcomes(
        args.requiredString(ROOT),
        pattern(call),
        SparkCleanupProcedure.options(call),
        args.stringMap(SparkCleanupProcedure.OPTIONS));
    return new Result(ResultRows.FLEET_CLEANUP_SCHEMA, ResultRows.fleetInternalRows(ResultRows.FLEET_CLEANUP_SCHEMA, outcomes));
  }
}
