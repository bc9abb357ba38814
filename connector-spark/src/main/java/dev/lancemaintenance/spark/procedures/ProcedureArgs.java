package dev.lancemaintenance.spark.procedures;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The arguments of one procedure call, read by parameter, never by ordinal: Spark has already put
 * named and positional arguments in parameter order and filled in defaults. A SQL {@code NULL} reads
 * as absent.
 */
final class ProcedureArgs {
  private final List<ProcedureParameter> parameters;
  private final InternalRow row;

  ProcedureArgs(List<ProcedureParameter> parameters, InternalRow row) {
    this.parameters = parameters;
    this.row = row;
  }

  private int indexOf(ProcedureParameter parameter) {
    for (int i = 0; i < parameters.size(); i++) {
      if (parameters.get(i).name().equals(parameter.name())) {
        return i;
      }
    }
    throw new IllegalStateException("Not a parameter of this call: " + parameter.name());
  }

  boolean isSet(ProcedureParameter parameter) {
    return !row.isNullAt(indexOf(parameter));
  }

  /** The declared type of the parameter in this call (older_than is a TIMESTAMP or a STRING). */
  DataType typeOf(ProcedureParameter parameter) {
    return parameters.get(indexOf(parameter)).dataType();
  }

  String requiredString(ProcedureParameter parameter) {
    if (!isSet(parameter)) {
      throw new IllegalArgumentException("Parameter '" + parameter.name() + "' is required and was not set");
    }
    String value = row.getUTF8String(indexOf(parameter)).toString();
    if (value.isBlank()) {
      throw new IllegalArgumentException("Parameter '" + parameter.name() + "' must not be empty");
    }
    return value;
  }

  Optional<String> string(ProcedureParameter parameter) {
    return isSet(parameter) ? Optional.of(row.getUTF8String(indexOf(parameter)).toString()) : Optional.empty();
  }

  OptionalLong longValue(ProcedureParameter parameter) {
    if (!isSet(parameter)) {
      return OptionalLong.empty();
    }
    int index = indexOf(parameter);
    DataType type = typeOf(parameter);
    return OptionalLong.of(type.equals(DataTypes.IntegerType) ? row.getInt(index) : row.getLong(index));
  }

  OptionalDouble doubleValue(ProcedureParameter parameter) {
    return isSet(parameter) ? OptionalDouble.of(row.getDouble(indexOf(parameter))) : OptionalDouble.empty();
  }

  /** A TIMESTAMP argument in microseconds since the epoch. */
  OptionalLong timestampMicros(ProcedureParameter parameter) {
    return isSet(parameter) ? OptionalLong.of(row.getLong(indexOf(parameter))) : OptionalLong.empty();
  }

  Optional<Boolean> bool(ProcedureParameter parameter) {
    return isSet(parameter) ? Optional.of(row.getBoolean(indexOf(parameter))) : Optional.empty();
  }

  Map<String, String> stringMap(ProcedureParameter parameter) {
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

  /**
   * The parameter names a call gives, by name or by position, from the input type Spark binds with:
   * a NULL among them was written by the user and is never a default.
   */
  static List<String> givenNames(StructType inputType, List<ProcedureParameter> declared) {
    List<String> names = new ArrayList<>();
    StructField[] fields = inputType.fields();
    for (int i = 0; i < fields.length; i++) {
      boolean byName = fields[i].metadata().contains(ProcedureParameter.BY_NAME_METADATA_KEY);
      names.add(byName ? fields[i].name() : i < declared.size() ? declared.get(i).name() : "");
    }
    return names;
  }

  static boolean isGiven(List<String> given, ProcedureParameter parameter) {
    return given.stream().anyMatch(name -> name.equalsIgnoreCase(parameter.name()));
  }

  static String normalize(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
