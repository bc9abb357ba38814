package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.OptimizeAction;
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
 * {@code CALL lance.optimize(table, <the compaction options>, options, <the cleanup options of
 * optimize>)}, its parameters generated from {@link OptimizeAction#OPTIONS}: the tag pre-flight, a
 * Spark compaction, then a Spark cleanup ({@link OptimizeAction}); returns one row of {@code
 * OptimizeResult.namedCounters()}. {@code older_than} is a duration ({@code '7d'}, {@code 'PT2H'}),
 * an ISO instant or a TIMESTAMP; {@code options} are the SDK's storage options for the compaction,
 * {@code hadoop_options} the Hadoop settings for the cleanup, over the session's {@code
 * spark.hadoop.*}. A NULL given for an argument that decides what is deleted is an error.
 */
final class SparkOptimizeProcedure extends BaseLanceProcedure {
  static final String NAME = "optimize";

  static final Parameter HADOOP_OPTIONS =
      Parameter.optional(
          "hadoop_options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "Hadoop settings for the cleanup's store, over the session's spark.hadoop.*");

  SparkOptimizeProcedure(Clock clock) {
    super(NAME,
        "LanceDB's optimize without the index step: compaction, then cleanup, both distributed over the"
            + " executors; refuses before compacting when a tag would make the cleanup refuse.",
        OptimizeAction.OPTIONS, ResultRows.OPTIMIZE_SCHEMA, clock);
  }

  /**
   * {@code table}, the compaction options and {@code options} (as {@code lance.compact}), then the
   * cleanup options in {@link OptimizeAction#CLEANUP_OPTIONS}' order with {@code hadoop_options}
   * before {@code allow_short_retention}: the order of positional calls written before it existed.
   */
  static List<Parameter> parameters(DataType olderThanType) {
    List<Parameter> all = new ArrayList<>(CompactionParameters.ALL);
    for (CleanupOption option : OptimizeAction.CLEANUP_OPTIONS) {
      if (option == CleanupOption.ALLOW_SHORT_RETENTION) {
        all.add(HADOOP_OPTIONS);
      }
      all.add(OptionParameters.parameter(option, olderThanType));
    }
    return List.copyOf(all);
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return parameters(OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN));
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    String table = args.requiredString(CompactionParameters.TABLE);
    // Read first: a NULL that decides what is deleted fails before the action is even made.
    Map<MaintenanceOption, Object> given = OptionParameters.given(call, OptimizeAction.OPTIONS);
    OptimizeAction action =
        LanceMaintenance.of(SparkSession.active(), clock)
            .optimize(table, CompactionParameters.storageOptions(args), args.stringMap(HADOOP_OPTIONS))
            .optionValues(given);
    return Result.of(ResultRows.OPTIMIZE_SCHEMA, ResultRows.internalRow(action.execute().namedCounters()));
  }
}
