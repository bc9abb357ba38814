package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.spark.LanceMaintenance;
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
  static final ProcedureParameter HADOOP_OPTIONS =
      CompactionParameters.optional(
          "hadoop_options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "Hadoop settings for the cleanup's store, over the session's spark.hadoop.*");

  static final List<ProcedureParameter> ALL = allParameters();

  private final Clock clock;

  SparkOptimizeProcedure(Clock clock) {
    this.clock = clock;
  }

  private static List<ProcedureParameter> allParameters() {
    List<ProcedureParameter> all = new ArrayList<>(CompactionParameters.ALL);
    all.addAll(List.of(OLDER_THAN, DELETE_UNVERIFIED, ERROR_IF_TAGGED_OLD_VERSIONS, DRY_RUN, HADOOP_OPTIONS));
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
    return this;
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
    args.string(OLDER_THAN).ifPresent(action::olderThan);
    args.bool(DELETE_UNVERIFIED).ifPresent(action::deleteUnverified);
    args.bool(ERROR_IF_TAGGED_OLD_VERSIONS).ifPresent(action::errorIfTaggedOldVersions);
    args.bool(DRY_RUN).ifPresent(action::dryRun);
    InternalRow row = ResultRows.internalRow(action.execute().namedCounters());
    return List.<Scan>of(new RowsScan(ResultRows.OPTIMIZE_SCHEMA, new InternalRow[] {row})).iterator();
  }
}
