package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupOption;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the Flink procedures read their arguments: Flink hands each declared argument over as a
 * value, null when not given (or given as NULL: Flink does not tell them apart), in the order of
 * the catalogue ({@link CleanupOption}), which {@code FlinkProcedureArgumentsTest} checks.
 */
final class ProcedureArgs {
  private ProcedureArgs() {}

  /** Every procedure's table argument: set, and a hint at the quoting Flink SQL needs. */
  static void requireTable(String table) {
    if (table == null || table.isBlank()) {
      throw new IllegalArgumentException("Parameter 'table' is not set: give the table URI, e.g. `table` => 's3a://b/t.lance' (TABLE is reserved in Flink SQL: quote it)");
    }
  }

  /**
   * The policy arguments of the procedures that delete nothing ({@code sys.cleanup_files}, {@code
   * sys.describe_storage}, {@code sys.describe_storage_all}), in the catalogue's order of {@link
   * CleanupOption#policyOptions()}; nulls are left out.
   */
  static Map<CleanupOption, Object> policy(
      String olderThan, Long beforeVersion, Boolean deleteUnverified, Boolean errorIfTaggedOldVersions,
      Boolean cleanReferencedBranches, String branch, Boolean allowShortRetention, Integer retainLast) {
    return given(Arrays.asList(olderThan, beforeVersion, deleteUnverified, errorIfTaggedOldVersions, cleanReferencedBranches,
        branch, allowShortRetention, retainLast), CleanupOption.policyOptions().toArray(CleanupOption[]::new));
  }

  /** Every fleet procedure's root argument: set. */
  static void requireRoot(String root) {
    if (root == null || root.isBlank()) {
      throw new IllegalArgumentException("Parameter 'root' is not set: give the directory that holds the tables, e.g."
          + " root => 's3a://b/warehouse/'");
    }
  }

  /** A procedure argument without which the call means nothing: set, or an error naming it. */
  static <T> T required(String name, T value) {
    if (value == null) {
      throw new IllegalArgumentException("Parameter '" + name + "' is required and was not set (or its name was misspelt:"
          + " Flink SQL drops unknown argument names)");
    }
    return value;
  }

  /**
   * The catalogue options of a procedure that takes every one of them, in catalogue order ({@code
   * sys.cleanup}, {@code sys.cleanup_all}), with {@code older_than} and {@code dry_run} required.
   */
  static Map<CleanupOption, Object> everyOption(String procedure, Object... values) {
    Map<CleanupOption, Object> options = given(Arrays.asList(values), CleanupOption.values());
    requireGiven(procedure, options, Arrays.asList(CleanupOption.values()));
    return options;
  }

  /**
   * The options given, by the option each value is for (in the order of {@code options}, any
   * catalogue's); nulls are left out.
   */
  static Map<MaintenanceOption, Object> given(List<?> values, List<? extends MaintenanceOption> options) {
    if (values.size() != options.size()) {
      throw new IllegalStateException("arguments " + values.size() + " vs options " + options.size());
    }
    Map<MaintenanceOption, Object> given = new LinkedHashMap<>();
    for (int i = 0; i < options.size(); i++) {
      if (values.get(i) != null) {
        given.put(options.get(i), values.get(i));
      }
    }
    return given;
  }

  /** The cleanup options given, by the catalogue option each value is for; nulls are left out. */
  static Map<CleanupOption, Object> given(List<?> values, CleanupOption... options) {
    if (values.size() != options.length) {
      throw new IllegalStateException("arguments " + values.size() + " vs options " + options.length);
    }
    Map<CleanupOption, Object> given = new EnumMap<>(CleanupOption.class);
    for (int i = 0; i < options.length; i++) {
      if (values.get(i) != null) {
        given.put(options[i], values.get(i));
      }
    }
    return given;
  }


  /**
   * Flink SQL drops a named argument it does not know and passes a NULL as an omitted one, so the
   * arguments whose loss would turn a look into a delete must be given: {@code older_than} and
   * {@code dry_run}. The error names the missing one and the valid names.
   */
  static void requireGiven(
      String procedure, Map<? extends MaintenanceOption, Object> given, List<? extends MaintenanceOption> valid) {
    for (CleanupOption required : List.of(CleanupOption.OLDER_THAN, CleanupOption.DRY_RUN)) {
      if (!given.containsKey(required)) {
        throw new IllegalArgumentException(
            "sys." + procedure + " needs " + required.sqlName() + " => ..., given and not NULL: Flink SQL ignores a"
                + " misspelt argument name and passes NULL as absent, so a lost " + required.sqlName()
                + " could delete what you did not ask for. Valid arguments: table, "
                + valid.stream().map(MaintenanceOption::sqlName).collect(java.util.stream.Collectors.joining(", ")));
      }
    }
  }
}
