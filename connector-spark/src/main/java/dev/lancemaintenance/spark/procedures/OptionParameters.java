package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * The procedures' side of the option catalogues: a catalogue option as a procedure parameter, and
 * the options a call gives, read by parameter. {@code cleanup}, {@code compact} and {@code optimize}
 * generate their parameters here, so a catalogue option cannot be missing from a procedure or typed
 * differently in two of them.
 */
final class OptionParameters {
  private OptionParameters() {}

  /**
   * The parameter of {@code option}. A cutoff ({@code older_than}) takes {@code cutoffType}, after
   * the argument given. The default is the option's where SQL writes it as the parameter's type,
   * NULL (the action's own default) for a cutoff, a DOUBLE (a SQL {@code 0.1} is a DECIMAL) and an
   * option without one.
   */
  static Parameter parameter(MaintenanceOption option, DataType cutoffType) {
    DataType type = switch (option.type()) {
      case CUTOFF -> cutoffType;
      case LONG -> DataTypes.LongType;
      case INT -> DataTypes.IntegerType;
      case DOUBLE -> DataTypes.DoubleType;
      case BOOLEAN -> DataTypes.BooleanType;
      case STRING -> DataTypes.StringType;
    };
    boolean sqlDefault = option.type() != MaintenanceOption.Type.CUTOFF && option.type() != MaintenanceOption.Type.DOUBLE;
    String defaultSql = sqlDefault ? option.defaultValue().orElse("NULL") : "NULL";
    return Parameter.optional(option.sqlName(), type, defaultSql, option.doc());
  }

  /** The parameters of {@code options}, in their order. */
  static List<Parameter> parameters(List<? extends MaintenanceOption> options, DataType cutoffType) {
    return options.stream().map(option -> parameter(option, cutoffType)).toList();
  }

  /** TIMESTAMP when the call gives a temporal {@code older_than}, else STRING (a duration or an ISO instant). */
  static DataType cutoffType(Map<String, DataType> givenTypes, MaintenanceOption cutoff) {
    DataType given = givenTypes.get(cutoff.sqlName());
    boolean temporal = given instanceof TimestampType || given instanceof TimestampNTZType || given instanceof DateType;
    return temporal ? DataTypes.TimestampType : DataTypes.StringType;
  }

  /**
   * Every option of {@code catalogue} the call gives, by option; the procedure's other parameters
   * ({@code table}, {@code options}) are left to it. Only what the call gives: the rest keep the
   * action's defaults (and the session's settings). A NULL given for an option that decides what
   * is deleted is an error, never the default.
   */
  static Map<MaintenanceOption, Object> given(LanceProcedure.BoundCall call, OptionCatalogue catalogue) {
    ProcedureArgs args = call.args();
    Map<MaintenanceOption, Object> given = new LinkedHashMap<>();
    for (Parameter parameter : call.parameters()) {
      if (!catalogue.sqlNames().contains(parameter.name()) || !call.isGiven(parameter)) {
        continue;
      }
      MaintenanceOption option = catalogue.named(parameter.name(), List.of());
      if (!args.isSet(parameter)) {
        if (option.changesWhatIsDeleted()) {
          throw option.nullValue();
        }
        continue;
      }
      given.put(option, value(args, parameter, option));
    }
    return given;
  }

  private static Object value(ProcedureArgs args, Parameter parameter, MaintenanceOption option) {
    return switch (option.type()) {
      case CUTOFF -> args.typeOf(parameter).equals(DataTypes.TimestampType)
          ? Instant.EPOCH.plus(args.timestampMicros(parameter).getAsLong(), ChronoUnit.MICROS)
          : args.string(parameter).orElseThrow();
      case LONG, INT -> args.longValue(parameter).getAsLong();
      case DOUBLE -> args.doubleValue(parameter).getAsDouble();
      case BOOLEAN -> args.bool(parameter).orElseThrow();
      case STRING -> args.string(parameter).orElseThrow();
    };
  }

  /**
   * The error for an argument name the procedure does not have: the catalogue's (naming it and
   * listing the valid ones), with the procedure's own parameters among the valid names.
   */
  static IllegalArgumentException unknown(OptionCatalogue catalogue, List<Parameter> declared, String name) {
    List<String> own = declared.stream()
        .map(Parameter::name)
        .filter(parameter -> !catalogue.sqlNames().contains(parameter))
        .toList();
    return catalogue.unknown(name, own);
  }
}
