package dev.lancemaintenance.spark.procedures;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.types.DataType;

/**
 * One parameter of a Lance procedure, in terms every Spark line has: Spark 4's native procedures
 * turn it into a {@code ProcedureParameter}, Spark 3.5's {@code CALL} extension binds arguments to
 * it itself.
 *
 * @param defaultSql the SQL literal of the default ({@code "NULL"}, {@code "false"}, {@code "0"}),
 *     empty for a required parameter
 */
public record Parameter(String name, DataType type, Optional<String> defaultSql, String comment) {
  static Parameter required(String name, DataType type, String comment) {
    return new Parameter(name, type, Optional.empty(), comment);
  }

  static Parameter optional(String name, DataType type, String defaultSql, String comment) {
    return new Parameter(name, type, Optional.of(defaultSql), comment);
  }

  /** Optional with a NULL default: absent keeps the action's own default. */
  static Parameter optional(String name, DataType type, String comment) {
    return optional(name, type, "NULL", comment);
  }

  /** The same parameter with another type (older_than is a TIMESTAMP or a STRING, after the argument given). */
  Parameter withType(DataType newType) {
    return new Parameter(name, newType, defaultSql, comment);
  }

  /** A procedure's parameters in the order Spark binds positional arguments: the parts one after the other. */
  @SafeVarargs
  static List<Parameter> inOrder(List<Parameter>... parts) {
    List<Parameter> parameters = new ArrayList<>();
    for (List<Parameter> part : parts) {
      parameters.addAll(part);
    }
    return List.copyOf(parameters);
  }
}
