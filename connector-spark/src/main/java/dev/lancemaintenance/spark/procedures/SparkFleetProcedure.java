package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
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
import org.apache.spark.sql.types.StructType;

/**
 * What every fleet procedure ({@code cleanup_all}, {@code describe_storage_all}, {@code
 * optimize_all}) shares: {@code root} and {@code pattern} ahead of the one-table procedure's
 * arguments, and one row per table of its {@link TableOutcome}s. A fleet procedure says only which
 * arguments of its one-table procedure it takes and which fleet call of {@link LanceMaintenance} it
 * makes with them.
 */
abstract class SparkFleetProcedure extends BaseLanceProcedure {
  static final Parameter ROOT = Parameter.required(
      "root", DataTypes.StringType, "the directory that holds the tables (a Lance directory namespace)");
  static final Parameter PATTERN = Parameter.optional(
      "pattern", DataTypes.StringType, "'" + DirectoryNamespace.DEFAULT_PATTERN + "'",
      "a glob over the names of the directories under root");

  private final StructType rows;

  SparkFleetProcedure(String name, String description, OptionCatalogue catalogue, StructType rows, Clock clock) {
    super(name, description, catalogue, rows, clock);
    this.rows = rows;
  }

  /** The one-table procedure's parameters this call takes, after {@code root} and {@code pattern}. */
  abstract List<Parameter> tableParameters(Map<String, DataType> givenTypes);

  /** The call on every table under {@code root} whose directory name matches {@code pattern}. */
  abstract List<TableOutcome> outcomes(LanceMaintenance maintenance, String root, String pattern, BoundCall call);

  @Override
  public final List<Parameter> parameters(Map<String, DataType> givenTypes) {
    List<Parameter> parameters = new ArrayList<>(List.of(ROOT, PATTERN));
    parameters.addAll(tableParameters(givenTypes));
    return parameters;
  }

  @Override
  public final Result call(BoundCall call) {
    List<TableOutcome> outcomes =
        outcomes(LanceMaintenance.of(SparkSession.active(), clock), call.args().requiredString(ROOT), pattern(call), call);
    return new Result(rows, ResultRows.fleetInternalRows(rows, outcomes));
  }

  /** The glob: given, or the default; NULL is an error, not the default. */
  private static String pattern(BoundCall call) {
    if (call.isGiven(PATTERN) && !call.args().isSet(PATTERN)) {
      throw new IllegalArgumentException("Parameter 'pattern' is NULL: give a glob or leave it out (default "
          + DirectoryNamespace.DEFAULT_PATTERN + ")");
    }
    return call.args().string(PATTERN).orElse(DirectoryNamespace.DEFAULT_PATTERN);
  }
}
