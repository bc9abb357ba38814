package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
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

/**
 * {@code CALL lance.describe_storage(table, windows, older_than, before_version, delete_unverified,
 * error_if_tagged_old_versions, clean_referenced_branches, options, branch, allow_short_retention, ...,
 * file_list_view)}:
 * the storage report as rows ({@link ResultRows#STORAGE_SCHEMA}: section, name, versions, files,
 * bytes, detail). The policy parameters are the cleanup's, generated from {@link CleanupOption}
 * (without its run settings), so the report is about exactly the cleanup the same arguments would
 * run; {@code windows} ({@code '0s,1h,1d,7d,30d'} by default) are the what-if's; {@code
 * file_list_view} lists the table from a view, as the cleanup does. Deletes nothing.
 */
final class SparkDescribeStorageProcedure extends BaseLanceProcedure {
  static final String NAME = "describe_storage";

  static final Parameter WINDOWS = Parameter.optional(
      "windows", DataTypes.StringType, "the what-if's windows, comma-separated durations (default 0s,1h,1d,7d,30d)");

  SparkDescribeStorageProcedure(Clock clock) {
    super(NAME,
        "Reports what a Lance table's files are for, what a cleanup with the given policy frees now,"
            + " and what each retention window would free, computed by the cleanup's own stages on the executors.",
        CleanupOption.CATALOGUE, ResultRows.STORAGE_SCHEMA, clock);
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return Parameter.inOrder(
        List.of(SparkCleanupProcedure.TABLE, WINDOWS), policyParameters(givenTypes), List.of(SparkCleanupProcedure.FILE_LIST_VIEW));
  }

  /** The cleanup's policy parameters, generated from the catalogue, with {@code options} before {@code branch}. */
  static List<Parameter> policyParameters(Map<String, DataType> givenTypes) {
    DataType cutoffType = OptionParameters.cutoffType(givenTypes, CleanupOption.OLDER_THAN);
    List<Parameter> parameters = new ArrayList<>(OptionParameters.parameters(CleanupOption.policyOptions(), cutoffType));
    parameters.add(parameters.indexOf(OptionParameters.parameter(CleanupOption.BRANCH, cutoffType)), SparkCleanupProcedure.OPTIONS);
    return parameters;
  }

  /** The policy options given, by catalogue option. */
  static Map<CleanupOption, Object> policy(BoundCall call) {
    Map<CleanupOption, Object> options = new EnumMap<>(CleanupOption.class);
    options.putAll(OptionCatalogue.only(CleanupOption.class, OptionParameters.given(call, CleanupOption.CATALOGUE)));
    return options;
  }

  /** A misspelt argument is the cleanup catalogue's error, naming it. */
  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    Map<CleanupOption, Object> options = policy(call);
    if (call.isGiven(WINDOWS) && !args.isSet(WINDOWS)) {
      throw new IllegalArgumentException("Parameter 'windows' is NULL: give windows such as '0s,1d,7d' or leave it out");
    }
    Optional<String> windows = args.string(WINDOWS);
    StorageReport report = LanceMaintenance.of(SparkSession.active(), clock)
        .storageReport(args.requiredString(SparkCleanupProcedure.TABLE), options, windows,
            args.stringMap(SparkCleanupProcedure.OPTIONS), SparkCleanupProcedure.fileListView(call));
    return new Result(ResultRows.STORAGE_SCHEMA,
        report.rows().stream().map(ResultRows::storageInternalRow).toArray(InternalRow[]::new));
  }
}
