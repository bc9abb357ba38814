package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
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
final class SparkOptimizeProcedure implements UnboundProcedure, BoundProcedure {
  static final String NAME = "optimize";

  static final ProcedureParameter OLDER_THAN =
      CompactionParameters.optional(
          "older_than", DataTypes.StringType,
          "a duration such as '7d', '36h', 'PT2H' or an ISO instant (default 7 days): versions before it go");
  static final ProcedureParameter DELETE_UNVERIFIED =
      CompactionParameters.optional(
          "delete_unverified", DataTypes.BooleanType,
          "also delete unreferenced files younger than 7 days; unsafe while anything writes to the table");
  static final ProcedureParameter ERROR_IF_TAGGED_OLD_VERSIONS =
      CompactionParameters.optional(
          "error_if_tagged_old_versions", DataTypes.BooleanType,
          "refuse before compacting when the cleanup would find tagged old versions (default true)");
  static final ProcedureParameter DRY_RUN =
      CompactionParameters.optional(
          "dry_run", DataTypes.BooleanType, "plan the compaction and count the cleanup, write and delete nothing");
  /** Last, so that positional calls written before it existed keep their meaning. */
  static final ProcedureParameter ALLOW_SHORT_RETENTION =
      CompactionParameters.optional(
          "allow_short_retention", DataTypes.BooleanType, CleanupOption.ALLOW_SHORT_RETENTION.doc());
  static final ProcedureParameter HADOOP_OPTIONS =
      CompactionParameters.optional(
          "hadoop_options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "Hadoop settings for the cleanup's store, over the session's spark.hadoop.*");

  static final List<ProcedureParameter> ALL = allParameters();

  private final Clock clock;
  private final List<String> given;

  SparkOptimizeProcedure(Clock clock) {
    this(clock, List.of());
  }

  private SparkOptimizeProcedure(Clock clock, List<String> given) {
    this.clock = clock;
    this.given = given;
  }

  private static List<ProcedureParameter> allParameters() {
    List<ProcedureParameter> all = new ArrayList<>(CompactionParameters.ALL);
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
  public BoundProcedure bind(StructType inputType) {
    return new SparkOptimizeProcedure(clock, ProcedureArgs.givenNames(inputType, ALL));
  }

  @Override
  public ProcedureParameter[] parameters() {
    return ALL.toArray(new ProcedureParameter[0]);
  }

  @Override
  public boolean isDeterministic() {
    return false;
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    ProcedureArgs args = new ProcedureArgs(ALL, input);
    String table = args.requiredString(CompactionParameters.TABLE);
    OptimizeAction action =
        LanceMaintenance.of(SparkSession.active(), clock)
            .optimize(table, CompactionParameters.storageOptions(args), args.stringMap(HADOOP_OPTIONS));
    CompactionParameters.applyTo(args, action.compaction());
    for (ProcedureParameter decides : List.of(
        OLDER_THAN, DELETE_UNVERIFIED, ERROR_IF_TAGGED_OLD_VERSIONS, DRY_RUN, ALLOW_SHORT_RETENTION)) {
      if (!args.isSet(decides) && ProcedureArgs.isGiven(given, decides)) {
        throw CleanupOption.named(decides.name(), List.of()).nullValue();
      }
    }
    args.string(OLDER_THAN).ifPresent(action::olderThan);
    args.bool(DELETE_UNVERIFIED).ifPresent(action::deleteUnverified);
    args.bool(ALLOW_SHORT_RETENTION).ifPresent(action::allowShortRetention);
    args.bool(ERROR_IF_TAGGED_OLD_VERSIONS).ifPresent(action::errorIfTaggedOldVersions);
    args.bool(DRY_RUN).ifPresent(action::dryRun);
    InternalRow row = ResultRows.internalRow(action.execute().namedCounters());
    return List.<Scan>of(new RowsScan(ResultRows.OPTIMIZE_SCHEMA, new InternalRow[] {row})).iterator();
  }
}
