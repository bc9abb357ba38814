package dev.lancemaintenance.spark.procedures;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * The arguments of one procedure call, read by parameter, never by ordinal: Spark 4 (or the 3.5
 * {@code CALL} extension) has already put named and positional arguments in parameter order and
 * filled in defaults. A SQL {@code NULL} reads as absent.
 */
final class ProcedureArgs {
  private final List<Parameter> parameters;
  private final InternalRow row;

  ProcedureArgs(List<Parameter> parameters, InternalRow row) {
    this.parameters = parameters;
    this.row = row;
  }

  private int indexOf(Parameter parameter) {
    for (int i = 0; i < parameters.size(); i++) {
      if (parameters.get(i).name().equals(parameter.name())) {
        return i;
      }
    }
    throw new IllegalStateException("Not a parameter of this call: " + parameter.name());
  }

  boolean isSet(Parameter parameter) {
    return !row.isNullAt(indexOf(parameter));
  }

  /** The declared type of the parameter in this call (older_than is a TIMESTAMP or a STRING). */
  DataType typeOf(Parameter parameter) {
    return parameters.get(indexOf(parameter)).type();
  }

  String requiredString(Parameter parameter) {
    if (!isSet(parameter)) {
      throw new IllegalArgumentException("Parameter '" + parameter.name() + "' is required and was not set");
    }
    String value = row.getUTF8String(indexOf(parameter)).toString();
    if (value.isBlank()) {
      throw new IllegalArgumentException("Parameter '" + parameter.name() + "' must not be empty");
    }
    return value;
  }

  Optional<String> string(Parameter parameter) {
    return isSet(parameter) ? Optional.of(row.getUTF8String(indexOf(parameter)).toString()) : Optional.empty();
  }

  OptionalLong longValue(Parameter parameter) {
    if (!isSet(parameter)) {
      return OptionalLong.empty();
    }
    int index = indexOf(parameter);
    DataType type = typeOf(parameter);
    return OptionalLong.of(type.equals(DataTypes.IntegerType) ? row.getInt(index) : row.getLong(index));
  }

  OptionalDouble doubleValue(Parameter parameter) {
    return isSet(parameter) ? OptionalDouble.of(row.getDouble(indexOf(parameter))) : OptionalDouble.empty();
  }

  /** A TIMESTAMP argument in microseconds since the epoch. */
  OptionalLong timestampMicros(Parameter parameter) {
    return isSet(parameter) ? OptionalLong.of(row.getLong(indexOf(parameter))) : OptionalLong.empty();
  }

  Optional<Boolean> bool(Parameter parameter) {
    return isSet(parameter) ? Optional.of(row.getBoolean(indexOf(parameter))) : Optional.empty();
  }

  Map<String, String> stringMap(Parameter parameter) {
    Map<String, String> result = new HashMap<>();
    if (!isSet(parameter)) {
      return result;
    }
    MapData map = row.getMap(indexOf(parameter));
    ArrayData keys = map.keyArray();
    ArrayData values = map.valueArray();
    for (int i = 0; i < map.numElements(); i++) {
      if (values.isNullAt(i)) {
        throw new IllegalArgumentException(
            "Parameter '" + parameter.name() + "' has a NULL value for key '" + keys.getUTF8String(i) + "'");
      }
      result.put(keys.getUTF8String(i).toString(), values.getUTF8String(i).toString());
    }
    return result;
  }
}
