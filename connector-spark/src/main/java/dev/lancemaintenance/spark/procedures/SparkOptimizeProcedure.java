package dev.lancemaintenance.spark.procedures;

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
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lance.optimize(table, <the arguments of lance.compact>, older_than, delete_unverified,
 * error_if_tagged_old_versions, dry_run, hadoop_options)}: the tag pre-flight, a Spark compaction,
 * then a Spark cleanup ({@link OptimizeAction}); returns one row of {@code
 * OptimizeResult.namedCounters()}. {@code older_than} is a duration ({@code '7d'}, {@code 'PT2H'})
 * or an ISO instant; {@code options} are the SDK's storage options for the compaction, {@code
 * hadoop_options} the Hadoop settings for the cleanup, over the session's {@code spark.hadoop.*}.
 */
final class SparkOptimizeProcedure implements LanceProcedure {
  static final String NAME = "optimize";

  static final Parameter OLDER_THAN =
      Parameter.optional(
          "older_than", DataTypes.StringType,
          "a duration such as '7d', '36h', 'PT2H' or an ISO instant (default 7 days): versions before it go");
  static final Parameter DELETE_UNVERIFIED =
      Parameter.optional(
          "delete_unverified", DataTypes.BooleanType,
          "also delete unreferenced files younger than 7 days; unsafe while anything writes to the table");
  static final Parameter ERROR_IF_TAGGED_OLD_VERSIONS =
      Parameter.optional(
          "error_if_tagged_old_versions", DataTypes.BooleanType,
          "refuse before compacting when the cleanup would find tagged old versions (default true)");
  static final Parameter DRY_RUN =
      Parameter.optional(
          "dry_run", DataTypes.BooleanType, "plan the compaction and count the cleanup, write and delete nothing");
  /** Last, so that positional calls written before it existed keep their meaning. */
  static final Parameter ALLOW_SHORT_RETENTION =
      Parameter.optional(
          "allow_short_retention", DataTypes.BooleanType, CleanupOption.ALLOW_SHORT_RETENTION.doc());
  static final Parameter HADOOP_OPTIONS =
      Parameter.optional(
          "hadoop_options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "Hadoop settings for the cleanup's store, over the session's spark.hadoop.*");

  static final List<Parameter> ALL = allParameters();

  private final Clock clock;

  SparkOptimizeProcedure(Clock clock) {
    this.clock = clock;
  }

  private static List<Parameter> allParameters() {
    List<Parameter> all = new ArrayList<>(CompactionParameters.ALL);
    all.addAll(List.of(
        OLDER_THAN, DELETE_UNVERIFIED, ERROR_IF_TAGGED_OLD_VERSIONS, DRY_RUN, HADOOP_OPTIONS, ALLOW_SHORT_RETENTION));
    return List.copyOf(all);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "LanceDB's optimize without the index step: compaction, then cleanup, both distributed over the"
        + " executors; refuses before compacting when a tag would make the cleanup refuse.";
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return ALL;
  }

  @Override
  public StructType schema(BoundCall call) {
    return ResultRows.OPTIMIZE_SCHEMA;
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    String table = args.requiredString(CompactionParameters.TABLE);
    OptimizeAction action =
        LanceMaintenance.of(SparkSession.active(), clock)
            .optimize(table, CompactionParameters.storageOptions(args), args.stringMap(HADOOP_OPTIONS));
    CompactionParameters.applyTo(args, action.compaction());
    for (Parameter decides : List.of(
        OLDER_THAN, DELETE_UNVERIFIED, ERROR_IF_TAGGED_OLD_VERSIONS, DRY_RUN, ALLOW_SHORT_RETENTION)) {
      if (!args.isSet(decides) && call.isGiven(decides)) {
        throw CleanupOption.named(decides.name(), List.of()).nullValue();
      }
    }
    args.string(OLDER_THAN).ifPresent(action::olderThan);
    args.bool(DELETE_UNVERIFIED).ifPresent(action::deleteUnverified);
    args.bool(ALLOW_SHORT_RETENTION).ifPresent(action::allowShortRetention);
    args.bool(ERROR_IF_TAGGED_OLD_VERSIONS).ifPresent(action::errorIfTaggedOldVersions);
    args.bool(DRY_RUN).ifPresent(action::dryRun);
    return Result.of(ResultRows.OPTIMIZE_SCHEMA, ResultRows.internalRow(action.execute().namedCounters()));
  }
}
