package dev.lancemaintenance.spark.procedures;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.types.DataType;

/**
 * Binds the arguments of a {@code CALL} as written (positional, then {@code name => value}) to a
 * procedure's parameters, with the rules Spark 4 applies to its native procedures, for the Spark
 * lines that bind them themselves (3.5's session extension). Any mistake is an error naming the
 * argument, before anything runs: an unknown or repeated name, a positional argument after a named
 * one, more arguments than parameters, a required parameter left out.
 */
public final class CallArguments {
  private CallArguments() {}

  /** One argument as written: its name ({@code older_than => ...}) or none (positional), and its type. */
  public record Written(Optional<String> name, DataType type) {}

  /**
   * The parameters of the call and, per parameter, which written argument gives it.
   *
   * @param argumentOf for each parameter the index of its written argument, or -1 (its default)
   */
  public record Binding(List<Parameter> parameters, int[] argumentOf, List<String> givenNames) {}

  public static Binding bind(LanceProcedure procedure, List<Written> written) {
    List<Parameter> declared = procedure.parameters(Map.of());
    int[] argumentOf = new int[declared.size()];
    Arrays.fill(argumentOf, -1);
    boolean named = false;
    for (int i = 0; i < written.size(); i++) {
      Optional<String> name = written.get(i).name();
      int parameter;
      if (name.isPresent()) {
        named = true;
        parameter = indexOf(declared, name.get());
        if (parameter < 0) {
          throw unknown(procedure, declared, name.get());
        }
      } else if (named) {
        throw new IllegalArgumentException(
            "lance." + procedure.name() + ": positional argument " + (i + 1) + " follows a named argument;"
                + " give positional arguments first");
      } else if (i >= declared.size()) {
        throw new IllegalArgumentException(
            "lance." + procedure.name() + " takes at most " + declared.size() + " arguments, " + written.size()
                + " given");
      } else {
        parameter = i;
      }
      if (argumentOf[parameter] >= 0) {
        throw new IllegalArgumentException(
            "lance." + procedure.name() + ": argument '" + declared.get(parameter).name()
                + "' is given more than once");
      }
      argumentOf[parameter] = i;
    }
    Map<String, DataType> givenTypes = new HashMap<>();
    List<String> givenNames = new ArrayList<>();
    for (int p = 0; p < declared.size(); p++) {
      if (argumentOf[p] >= 0) {
        givenTypes.put(declared.get(p).name(), written.get(argumentOf[p]).type());
        givenNames.add(declared.get(p).name());
      } else if (declared.get(p).defaultSql().isEmpty()) {
        throw new IllegalArgumentException(
            "lance." + procedure.name() + ": parameter '" + declared.get(p).name() + "' is required and was not set");
      }
    }
    return new Binding(procedure.parameters(givenTypes), argumentOf, List.copyOf(givenNames));
  }

  private static int indexOf(List<Parameter> parameters, String name) {
    for (int i = 0; i < parameters.size(); i++) {
      if (parameters.get(i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  /** A procedure with an option catalogue gives the catalogue's error; the others list their parameters. */
  private static IllegalArgumentException unknown(LanceProcedure procedure, List<Parameter> declared, String name) {
    return procedure.catalogue()
        .map(catalogue -> OptionParameters.unknown(catalogue, declared, name))
        .orElseGet(() -> new IllegalArgumentException(
            "lance." + procedure.name() + " has no parameter '" + name.toLowerCase(Locale.ROOT) + "'; parameters: "
                + String.join(", ", declared.stream().map(Parameter::name).toList())));
  }
}
