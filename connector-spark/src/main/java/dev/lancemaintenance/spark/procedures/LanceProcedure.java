package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * A Lance procedure ({@code cleanup}, {@code compact}, {@code optimize}, the tag procedures) apart from the Spark API
 * that calls it: its parameters, and a call on arguments already bound to them. Spark 4 calls it
 * through its native procedures ({@code NativeProcedure}), Spark 3.5 through the {@code CALL}
 * session extension; both get the same argument checks and the same rows.
 */
public interface LanceProcedure {
  String name();

  String description();

  /**
   * The parameters of a call, in positional order.
   *
   * @param givenTypes the type of each argument the call gives, by lower-case parameter name: a
   *     parameter may take its type from its argument ({@code older_than} TIMESTAMP or STRING)
   */
  List<Parameter> parameters(Map<String, DataType> givenTypes);

  /**
   * The option catalogue the procedure's arguments come from, if any: an unknown argument name is
   * then the catalogue's error, naming it and listing the valid names.
   */
  default Optional<OptionCatalogue> catalogue() {
    return Optional.empty();
  }

  /** The columns {@link #call} returns for this call. */
  StructType schema(BoundCall call);

  /**
   * Runs the call.
   *
   * @param call the arguments in the order of {@code parameters}, defaults filled in, and which of
   *     them the call gave (a NULL given is never a default)
   */
  Result call(BoundCall call);

  /** What a call returns: rows of one schema, held on the driver. */
  record Result(StructType schema, InternalRow[] rows) {
    static Result of(StructType schema, InternalRow row) {
      return new Result(schema, new InternalRow[] {row});
    }
  }

  /** A call's arguments, bound to the procedure's parameters. */
  record BoundCall(List<Parameter> parameters, List<String> givenNames, InternalRow row) {
    ProcedureArgs args() {
      return new ProcedureArgs(parameters, row);
    }

    boolean isGiven(Parameter parameter) {
      return givenNames.stream().anyMatch(name -> name.equalsIgnoreCase(parameter.name()));
    }
  }
}
