package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The arguments of one call of a Flink procedure, as its generated signature hands them over: the
 * procedure's own by name, and the catalogue options given. Flink passes every declared argument as a
 * value, null when it was not given or given as NULL (it does not tell them apart), and drops a
 * misspelt name before the call; so what a call must give is checked here, and the error names it.
 */
final class ProcedureCall {
  /**
   * The options whose loss would turn a look into a delete, required of every procedure that takes
   * {@code dry_run}: Flink SQL drops an argument name it does not know ({@code dryrun => true}) and
   * passes NULL as absent, so a run without them could delete what was not asked for.
   */
  private static final List<CleanupOption> REQUIRED_TO_DELETE = List.of(CleanupOption.OLDER_THAN, CleanupOption.DRY_RUN);

  private final String procedure;
  private final Map<String, Object> arguments = new LinkedHashMap<>();
  private final List<MaintenanceOption> declared;
  private final Map<MaintenanceOption, Object> given = new LinkedHashMap<>();

  /**
   * @param procedure the procedure's SQL name, for the errors
   * @param names the procedure's own arguments, in order, and {@code values} theirs
   * @param options the catalogue options it declares, in order, and {@code optionValues} theirs
   */
  ProcedureCall(String procedure, List<String> names, List<?> values, List<MaintenanceOption> options, List<?> optionValues) {
    if (names.size() != values.size() || options.size() != optionValues.size()) {
      throw new IllegalStateException("sys." + procedure + ": a generated signature out of step with its values");
    }
    this.procedure = procedure;
    for (int i = 0; i < names.size(); i++) {
      arguments.put(names.get(i), values.get(i));
    }
    this.declared = List.copyOf(options);
    for (int i = 0; i < options.size(); i++) {
      if (optionValues.get(i) != null) {
        given.put(options.get(i), optionValues.get(i));
      }
    }
  }

  /** The table argument: set, with a hint at the quoting Flink SQL needs. */
  String table() {
    return argument("table", String.class).filter(table -> !table.isBlank()).orElseThrow(() -> new IllegalArgumentException(
        "Parameter 'table' is not set: give the table URI, e.g. `table` => 's3a://b/t.lance' (TABLE is reserved in"
            + " Flink SQL: quote it)"));
  }

  /** A fleet procedure's root argument: set. */
  String root() {
    return argument("root", String.class).filter(root -> !root.isBlank()).orElseThrow(() -> new IllegalArgumentException(
        "Parameter 'root' is not set: give the directory that holds the tables, e.g. root => 's3a://b/warehouse/'"));
  }

  /** A fleet procedure's pattern of table directories, the namespace's default when not given. */
  String pattern() {
    return argument("pattern", String.class).orElse(DirectoryNamespace.DEFAULT_PATTERN);
  }

  /** One of the procedure's own arguments, empty when not given (or NULL). */
  <T> Optional<T> argument(String name, Class<T> type) {
    if (!arguments.containsKey(name)) {
      throw new IllegalStateException("sys." + procedure + " declares no argument '" + name + "'");
    }
    return Optional.ofNullable(type.cast(arguments.get(name)));
  }

  /** An argument without which the call means nothing: set, or an error naming it. */
  <T> T required(String name, Class<T> type) {
    return argument(name, type).orElseThrow(() -> new IllegalArgumentException("Parameter '" + name
        + "' is required and was not set (or its name was misspelt: Flink SQL drops unknown argument names)"));
  }

  /**
   * The options given, in the order declared; NULLs are left out, as Flink cannot tell them from
   * options not given. A procedure that takes {@code dry_run} must be given it and {@code older_than}.
   */
  Map<MaintenanceOption, Object> options() {
    if (declared.contains(CleanupOption.DRY_RUN)) {
      for (CleanupOption required : REQUIRED_TO_DELETE) {
        if (!given.containsKey(required)) {
          throw new IllegalArgumentException("sys." + procedure + " needs " + required.sqlName() + " => ..., given and"
              + " not NULL: Flink SQL ignores a misspelt argument name and passes NULL as absent, so a lost "
              + required.sqlName() + " could delete what you did not ask for. Valid arguments: " + validNames());
        }
      }
    }
    return given;
  }

  /** The options of one catalogue among {@link #options()} ({@code CleanupOption.class}). */
  <O extends MaintenanceOption> Map<O, Object> options(Class<O> catalogue) {
    return OptionCatalogue.only(catalogue, options());
  }

  private String validNames() {
    List<String> names = new ArrayList<>(arguments.keySet());
    declared.forEach(option -> names.add(option.sqlName()));
    return names.stream().collect(Collectors.joining(", "));
  }
}
