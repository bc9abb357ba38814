package dev.lancemaintenance.flink.procedures;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.ProcedureHint;

/** The arguments a procedure's {@code @ProcedureHint} declares, for the tests that check them against the catalogues. */
final class ProcedureHints {
  private ProcedureHints() {}

  /** The argument names, in order. */
  static List<String> names(Class<?> procedure) {
    return arguments(procedure, ArgumentHint::name);
  }

  /** {@code name TYPE} of each argument, in order ({@code older_than STRING}). */
  static List<String> namesAndTypes(Class<?> procedure) {
    return arguments(procedure, argument -> argument.name() + " " + argument.type().value());
  }

  private static List<String> arguments(Class<?> procedure, Function<ArgumentHint, String> describe) {
    List<String> arguments = new ArrayList<>();
    for (Method method : procedure.getMethods()) {
      ProcedureHint hint = method.getAnnotation(ProcedureHint.class);
      if (method.getName().equals("call") && hint != null) {
        for (ArgumentHint argument : hint.argument()) {
          arguments.add(describe.apply(argument));
        }
      }
    }
    return arguments;
  }
}
