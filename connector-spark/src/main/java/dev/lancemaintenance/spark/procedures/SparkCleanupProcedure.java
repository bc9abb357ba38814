package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.cleanup.CleanupSettings;
import dev.lancemaintenance.cleanup.OlderThan;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.SparkCleanupAction;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * {@code CALL lance.cleanup(table, older_than, before_version, delete_unverified,
 * error_if_tagged_old_versions, clean_referenced_branches, dry_run, max_concurrent_deletes,
 * delete_rate_limit, options, branch)}: reads the arguments, runs {@link SparkCleanupAction} and maps the
 * result to rows with {@link ResultRows}. Only {@code table} is required; the other defaults are
 * the engine's ({@code older_than} 7 days).
 *
 * <p>{@code older_than} is a TIMESTAMP (versions before it go) or a duration string such as {@code
 * '7d'} or {@code 'PT2H'} (versions older than now minus it go); the type of the argument given
 * decides which, at bind time. {@code options} are Hadoop settings for the table's store, over the
 * session's {@code spark.hadoop.*}.
 *
 * <p>Output: one row of counters, or with {@code dry_run => true} one row per file that would go.
 * Spark 4.1 procedures return local rows, so a dry run's rows are gathered on the driver; for dry
 * runs of millions of files use {@code LanceMaintenance...dryRun(true).toDataset()}, which streams.
 */
final class SparkCleanupProcedure implements UnboundProcedure {
  static final String NAME = "cleanup";

  static final ProcedureParameter TABLE =
      ProcedureParameter.in("table", DataTypes.StringType)
          .comment("the table: a path or a Hadoop URI (file:, hdfs:, s3a:, ...)")
          .build();
  static final ProcedureParameter BEFORE_VERSION =
      optional("before_version", DataTypes.LongType, "NULL", "only versions strictly below this one go");
  static final ProcedureParameter DELETE_UNVERIFIED =
      optional(
          "delete_unverified", DataTypes.BooleanType, "false",
          "also delete unreferenced files younger than 7 days; unsafe while anything writes to the table");
  static final ProcedureParameter ERROR_IF_TAGGED_OLD_VERSIONS =
      optional(
          "error_if_tagged_old_versions", DataTypes.BooleanType, "true",
          "refuse the run when a tagged version would go; false keeps tagged versions and cleans the rest");
  static final ProcedureParameter CLEAN_REFERENCED_BRANCHES =
      optional("clean_referenced_branches", DataTypes.BooleanType, "false", "also clean referenced branches");
  static final ProcedureParameter DRY_RUN =
      optional("dry_run", DataTypes.BooleanType, "false", "list the files that would go, delete nothing");
  static final ProcedureParameter MAX_CONCURRENT_DELETES =
      optional(
          "max_concurrent_deletes", DataTypes.IntegerType,
          String.valueOf(CleanupSettings.DEFAULT_MAX_CONCURRENT_DELETES), "delete tasks running at once");
  static final ProcedureParameter DELETE_RATE_LIMIT =
      optional("delete_rate_limit", DataTypes.LongType, "0", "file deletes per second across the run, 0 for no limit");
  static final ProcedureParameter OPTIONS =
      optional(
          "options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType), "NULL",
          "Hadoop settings for the table's store, over the session's spark.hadoop.*");

  /** Last, so that positional calls written before it existed keep their meaning. */
  static final ProcedureParameter BRANCH =
      optional("branch", DataTypes.StringType, "NULL", "clean this branch of the table instead of the main line");

  private static final String OLDER_THAN = "older_than";
  private static final String OLDER_THAN_COMMENT =
      "a TIMESTAMP, or a duration such as '7d', '36h', 'PT2H' (default 7 days): versions before it go";

  private final Clock clock;

  SparkCleanupProcedure(Clock clock) {
    this.clock = clock;
  }

  private static ProcedureParameter optional(String name, DataType type, String defaultSql, String comment) {
    return ProcedureParameter.in(name, type).defaultValue(defaultSql).comment(comment).build();
  }

  /** The parameters, with {@code older_than} typed after the argument given for it. */
  static List<ProcedureParameter> parameters(DataType olderThanType) {
    ProcedureParameter olderThan = optional(OLDER_THAN, olderThanType, "NULL", OLDER_THAN_COMMENT);
    return List.of(
        TABLE, olderThan, BEFORE_VERSION, DELETE_UNVERIFIED, ERROR_IF_TAGGED_OLD_VERSIONS,
        CLEAN_REFERENCED_BRANCHES, DRY_RUN, MAX_CONCURRENT_DELETES, DELETE_RATE_LIMIT, OPTIONS, BRANCH);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Removes versions of a Lance table older than older_than, and the files only they referenced,"
        + " with the semantics of Lance's cleanup_with_policy, distributed over the executors.";
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    return new Bound(parameters(olderThanType(inputType)), clock);
  }

  /** TIMESTAMP when the call passes a date or timestamp for older_than, else STRING. */
  private static DataType olderThanType(StructType inputType) {
    StructField[] fields = inputType.fields();
    List<ProcedureParameter> declared = parameters(DataTypes.StringType);
    for (int i = 0; i < fields.length; i++) {
      boolean byName = fields[i].metadata().contains(ProcedureParameter.BY_NAME_METADATA_KEY);
      String name = byName ? fields[i].name() : i < declared.size() ? declared.get(i).name() : "";
      if (name.equalsIgnoreCase(OLDER_THAN)) {
        DataType type = fields[i].dataType();
        boolean temporal = type instanceof TimestampType || type instanceof TimestampNTZType || type instanceof DateType;
        return temporal ? DataTypes.TimestampType : DataTypes.StringType;
      }
    }
    return DataTypes.StringType;
  }

  private static final class Bound implements BoundProcedure {
    private final List<ProcedureParameter> parameters;
    private final Clock clock;

    Bound(List<ProcedureParameter> parameters, Clock clock) {
      this.parameters = parameters;
      this.clock = clock;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public ProcedureParameter[] parameters() {
      return parameters.toArray(new ProcedureParameter[0]);
    }

    @Override
    public boolean isDeterministic() {
      return false;
    }

    @Override
    public Iterator<Scan> call(InternalRow input) {
      ProcedureArgs args = new ProcedureArgs(parameters, input);
      SparkCleanupAction action = configure(args);
      if (args.bool(DRY_RUN).orElse(false)) {
        List<InternalRow> rows = new ArrayList<>();
        action.dryRun(true).filesToRemove().toLocalIterator().forEachRemaining(file -> rows.add(ResultRows.fileInternalRow(file)));
        return List.<Scan>of(new RowsScan(ResultRows.FILE_SCHEMA, rows.toArray(new InternalRow[0]))).iterator();
      }
      InternalRow counters = ResultRows.counterInternalRow(action.execute());
      return List.<Scan>of(new RowsScan(ResultRows.COUNTER_SCHEMA, new InternalRow[] {counters})).iterator();
    }

    private SparkCleanupAction configure(ProcedureArgs args) {
      String table = args.requiredString(TABLE);
      SparkCleanupAction action;
      try {
        action = LanceMaintenance.of(SparkSession.active(), clock).cleanup(table, args.stringMap(OPTIONS));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Parameter 'table': " + e.getMessage(), e);
      }
      olderThan(args).ifPresent(action::beforeTimestamp);
      args.string(BRANCH).ifPresent(action::branch);
      args.longValue(BEFORE_VERSION).ifPresent(action::beforeVersion);
      args.bool(DELETE_UNVERIFIED).ifPresent(action::deleteUnverified);
      args.bool(ERROR_IF_TAGGED_OLD_VERSIONS).ifPresent(action::errorIfTaggedOldVersions);
      args.bool(CLEAN_REFERENCED_BRANCHES).ifPresent(action::cleanReferencedBranches);
      args.longValue(MAX_CONCURRENT_DELETES).ifPresent(value -> action.maxConcurrentDeletes(Math.toIntExact(value)));
      args.longValue(DELETE_RATE_LIMIT).ifPresent(action::deleteRateLimit);
      return action;
    }

    private Optional<Instant> olderThan(ProcedureArgs args) {
      ProcedureParameter olderThan = parameters.get(1);
      if (!args.isSet(olderThan)) {
        return Optional.empty();
      }
      if (args.typeOf(olderThan).equals(DataTypes.TimestampType)) {
        return Optional.of(Instant.EPOCH.plus(args.timestampMicros(olderThan).getAsLong(), ChronoUnit.MICROS));
      }
      return Optional.of(OlderThan.beforeTimestamp(args.string(olderThan).orElseThrow(), clock.instant()));
    }
  }
}
