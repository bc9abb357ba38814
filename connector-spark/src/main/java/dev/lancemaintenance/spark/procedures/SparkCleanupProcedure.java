package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import dev.lancemaintenance.spark.SparkCleanupAction;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lance.cleanup(table, older_than, before_version, delete_unverified,
 * error_if_tagged_old_versions, clean_referenced_branches, dry_run, max_concurrent_deletes,
 * delete_rate_limit, options, branch, allow_short_retention, ..., file_list_view)}, its parameters
 * generated from {@link CleanupOption}: reads the arguments, runs {@link SparkCleanupAction} and maps the
 * result to rows with {@link ResultRows}. Only {@code table} is required; the other defaults are
 * the engine's ({@code older_than} 7 days).
 *
 * <p>A NULL given for an argument that decides what is deleted ({@code dry_run => NULL}) is an
 * error, never the default. {@code delete_unverified} races concurrent writers: a window below
 * the retention guard (1 day) is refused unless {@code allow_short_retention => true} or the
 * session sets {@code spark.lance.cleanup.retentionCheck=false}.
 *
 * <p>{@code older_than} is a TIMESTAMP (versions before it go) or a duration string such as {@code
 * '7d'} or {@code 'PT2H'} (versions older than now minus it go); the type of the argument given
 * decides which, at bind time. {@code options} are Hadoop settings for the table's store, over the
 * session's {@code spark.hadoop.*}.
 *
 * <p>Output: one row of counters, or with {@code dry_run => true} one row per file that would go.
 * Procedures return local rows, so a dry run's rows are gathered on the driver; for dry
 * runs of millions of files use {@code LanceMaintenance...dryRun(true).toDataset()}, which streams.
 *
 * <p>{@code CALL lance.remove_orphan_files(table, older_than, dry_run, max_concurrent_deletes,
 * delete_rate_limit, options, branch, allow_short_retention, max_deletes, inventory, file_list_view)}
 * is the same procedure on
 * {@link CleanupOption#ORPHAN_FILES_CATALOGUE} with the orphan-sweep policy ({@link
 * SparkCleanupAction#orphanFilesOnly()}): no version expires, unreferenced files older than {@code
 * older_than} go.
 */
final class SparkCleanupProcedure extends BaseLanceProcedure {
  static final String NAME = "cleanup";
  static final String ORPHAN_FILES_NAME = "remove_orphan_files";

  static final Parameter TABLE =
      Parameter.required("table", DataTypes.StringType, "the table: a path or a Hadoop URI (file:, hdfs:, s3a:, ...)");
  /**
   * Spark's own argument (not a cleanup option: only Spark reads views): list the table from a view
   * of file paths instead of the store, as Iceberg's {@code remove_orphan_files}.
   */
  static final Parameter FILE_LIST_VIEW = Parameter.optional(
      "file_list_view", DataTypes.StringType, "NULL",
      "a view with the columns path, size, last_modified to list the table from instead of the store");
  /** Spark's own argument (not a cleanup option): Hadoop settings, keys not ours to check. */
  static final Parameter OPTIONS =
      Parameter.optional(
          "options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "Hadoop settings for the table's store, over the session's spark.hadoop.*");

  private final OptionCatalogue catalogue;

  SparkCleanupProcedure(Clock clock) {
    this(clock, CleanupOption.CATALOGUE);
  }

  private SparkCleanupProcedure(Clock clock, OptionCatalogue catalogue) {
    super(catalogue == CleanupOption.ORPHAN_FILES_CATALOGUE ? ORPHAN_FILES_NAME : NAME,
        catalogue == CleanupOption.ORPHAN_FILES_CATALOGUE
            ? "Removes the files under a Lance table's managed directories that no version references (writes that"
                + " never committed) and that are older than older_than (default 7 days); expires no version."
            : "Removes versions of a Lance table older than older_than, and the files only they referenced,"
                + " with the semantics of Lance's cleanup_with_policy, distributed over the executors.",
        catalogue, clock);
    this.catalogue = catalogue;
  }

  /** {@code lance.remove_orphan_files}: the cleanup with the orphan-sweep policy and its options. */
  static SparkCleanupProcedure removeOrphanFiles(Clock clock) {
    return new SparkCleanupProcedure(clock, CleanupOption.ORPHAN_FILES_CATALOGUE);
  }

  private boolean orphanFiles() {
    return catalogue == CleanupOption.ORPHAN_FILES_CATALOGUE;
  }

  /**
   * The parameters, generated from the option catalogue: {@code table}, then every {@link
   * CleanupOption} in catalogue order with {@code options} before {@code branch} (the order of
   * positional calls written before {@code branch} existed). {@code older_than} is typed after the
   * argument given for it.
   */
  static List<Parameter> parameters(DataType olderThanType) {
    return parameters(CleanupOption.CATALOGUE, olderThanType);
  }

  private static List<Parameter> parameters(OptionCatalogue catalogue, DataType olderThanType) {
    List<Parameter> parameters = new ArrayList<>();
    parameters.add(TABLE);
    parameters.addAll(optionParameters(catalogue, olderThanType));
    parameters.add(FILE_LIST_VIEW);
    return parameters;
  }

  /** The catalogue's parameters with {@code options} before {@code branch}: what follows the table (or a fleet's root). */
  static List<Parameter> optionParameters(DataType olderThanType) {
    return optionParameters(CleanupOption.CATALOGUE, olderThanType);
  }

  private static List<Parameter> optionParameters(OptionCatalogue catalogue, DataType olderThanType) {
    List<Parameter> parameters = new ArrayList<>(OptionParameters.parameters(catalogue.options(), olderThanType));
    parameters.add(parameters.indexOf(parameter(CleanupOption.BRANCH)), OPTIONS);
    return parameters;
  }

  private static Parameter parameter(CleanupOption option) {
    return OptionParameters.parameter(option, DataTypes.StringType);
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return parameters(catalogue, OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN));
  }

  /** A dry run's rows are its files; every other run returns one row of counters. */
  @Override
  public StructType schema(BoundCall call) {
    Parameter dryRun = parameter(CleanupOption.DRY_RUN);
    return call.isGiven(dryRun) && call.args().bool(dryRun).orElse(false) ? ResultRows.FILE_SCHEMA : ResultRows.COUNTER_SCHEMA;
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    Map<CleanupOption, Object> options = options(call, catalogue);
    SparkCleanupAction action;
    try {
      action = LanceMaintenance.of(SparkSession.active(), clock).cleanup(args.requiredString(TABLE), args.stringMap(OPTIONS));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Parameter 'table': " + e.getMessage(), e);
    }
    if (orphanFiles()) {
      action.orphanFilesOnly();
    }
    CleanupOption.applyTo(action, options, clock.instant());
    fileListView(call).ifPresent(action::fileListView);
    if (Boolean.TRUE.equals(options.get(CleanupOption.DRY_RUN))) {
      List<InternalRow> rows = new ArrayList<>();
      action.filesToRemove().toLocalIterator().forEachRemaining(file -> rows.add(ResultRows.fileInternalRow(file)));
      return new Result(ResultRows.FILE_SCHEMA, rows.toArray(new InternalRow[0]));
    }
    return Result.of(ResultRows.COUNTER_SCHEMA, ResultRows.counterInternalRow(action.execute()));
  }

  /** The {@code file_list_view} the call gives; NULL is an error, since it decides what is listed. */
  static Optional<String> fileListView(BoundCall call) {
    if (!call.isGiven(FILE_LIST_VIEW)) {
      return Optional.empty();
    }
    return Optional.of(call.args().string(FILE_LIST_VIEW).orElseThrow(() -> new IllegalArgumentException(
        "Parameter 'file_list_view' is NULL: give a view's name or leave it out")));
  }

  /**
   * Every catalogue option the call gives; a NULL given for one that decides what is deleted is an
   * error. The procedure's own parameters ({@code table}, {@code options}, a fleet's {@code root}
   * and {@code pattern}) are not the catalogue's and are left out.
   */
  static Map<CleanupOption, Object> options(BoundCall call) {
    return options(call, CleanupOption.CATALOGUE);
  }

  private static Map<CleanupOption, Object> options(BoundCall call, OptionCatalogue catalogue) {
    Map<CleanupOption, Object> options = new EnumMap<>(CleanupOption.class);
    options.putAll(OptionCatalogue.only(CleanupOption.class, OptionParameters.given(call, catalogue)));
    return options;
  }
}
