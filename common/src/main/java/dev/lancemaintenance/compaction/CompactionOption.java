package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The one catalogue of compaction options, as {@link dev.lancemaintenance.cleanup.CleanupOption}
 * is of the cleanup's: the command line ({@code compact}, {@code optimize}), Spark's {@code CALL
 * lance.compact/optimize}, Flink's {@code CALL sys.compact/optimize}, periodic maintenance and
 * {@link CompactAction#options(Map)} are generated from it or checked against it by a test, and
 * {@link #applyTo} is the one place where given values become settings of an action. The names
 * are Lance's ({@code CompactionOptions}) where Lance has the option.
 *
 * <p>Compaction deletes nothing (the replaced files stay referenced by the versions before it), so
 * none of these decides what is deleted: a NULL keeps Lance's default, as an option not given.
 */
public enum CompactionOption implements MaintenanceOption {
  TARGET_ROWS_PER_FRAGMENT(
      "target_rows_per_fragment", Type.LONG, "rows a merged fragment aims at (Lance: 1048576); fragments already"
          + " this large are left alone"),
  MAX_ROWS_PER_GROUP("max_rows_per_group", Type.LONG, "rows per row group in the files written"),
  MAX_BYTES_PER_FILE("max_bytes_per_file", Type.LONG, "a written file larger than this is split"),
  MATERIALIZE_DELETIONS(
      "materialize_deletions", Type.BOOLEAN, "true",
      "rewrite fragments whose deleted rows pass the threshold, even when they are large enough"),
  MATERIALIZE_DELETIONS_THRESHOLD(
      "materialize_deletions_threshold", Type.DOUBLE, "0.1",
      "share of deleted rows, 0..1, from which a fragment is rewritten"),
  NUM_THREADS("num_threads", Type.LONG, "threads the SDK uses inside one task"),
  BATCH_SIZE("batch_size", Type.LONG, "rows per batch the SDK reads while rewriting"),
  MAX_CONCURRENT_TASKS(
      "max_concurrent_tasks", Type.INT,
      "compaction tasks running at once (default: the driver's cores); more uses more memory and store bandwidth"),
  PARTIAL_PROGRESS(
      "partial_progress", Type.INT, String.valueOf(CompactionPolicy.NO_PARTIAL_PROGRESS),
      "commit every this many finished tasks on their own, so a failure late in a long compaction keeps what is"
          + " committed; 0 commits once, as Lance");

  /** Every compaction option, for the entry points of {@code compact}. */
  public static final OptionCatalogue CATALOGUE = OptionCatalogue.of("compact", List.of(values()));

  private final Declaration declaration;

  /** An option whose default is Lance's (or the engine's) own, not one written here. */
  CompactionOption(String sqlName, Type type, String doc) {
    this(sqlName, type, null, doc);
  }

  CompactionOption(String sqlName, Type type, String defaultValue, String doc) {
    this.declaration = new Declaration(sqlName, type, defaultValue, doc);
  }

  @Override
  public Declaration declaration() {
    return declaration;
  }

  /** None: compaction commits a new version and deletes nothing. */
  @Override
  public boolean changesWhatIsDeleted() {
    return false;
  }

  @Override
  public String kind() {
    return "Compaction";
  }

  @Override
  public String cliPlaceholder() {
    return this == PARTIAL_PROGRESS ? "TASKS_PER_COMMIT" : MaintenanceOption.super.cliPlaceholder();
  }

  /** The option named {@code name} (case-insensitive, as SQL); the error names it and lists the valid ones. */
  public static CompactionOption named(String name, Collection<String> alsoValid) {
    return (CompactionOption) CATALOGUE.named(name, alsoValid);
  }

  /** Options parsed from text by name ({@code {"target_rows_per_fragment": "1048576"}}), checked against the catalogue. */
  public static Map<CompactionOption, Object> parseAll(Map<String, String> textByName) {
    Map<CompactionOption, Object> values = new EnumMap<>(CompactionOption.class);
    values.putAll(OptionCatalogue.only(CompactionOption.class, CATALOGUE.parseAll(textByName)));
    return values;
  }

  /**
   * Applies the given values to {@code action}; options not given, or NULL, keep the action's
   * (Lance's) defaults. A bad value fails, naming the option, before the action changes.
   */
  public static <A extends CompactAction> A applyTo(A action, Map<CompactionOption, ?> values) {
    action.policy(applyTo(action.policy(), values));
    return action;
  }

  /**
   * {@code policy} with the given values; options not given, or NULL, keep its settings. The one
   * place where option values become compaction settings, for actions and for policies that travel
   * (periodic maintenance).
   */
  public static CompactionPolicy applyTo(CompactionPolicy policy, Map<CompactionOption, ?> values) {
    CompactionPolicy.Builder builder = policy.toBuilder();
    values.forEach((option, value) -> {
      if (value != null) {
        option.apply(builder, value);
      }
    });
    // build() validates, so a bad value fails here, naming the option.
    return builder.build();
  }

  private void apply(CompactionPolicy.Builder policy, Object value) {
    switch (this) {
      case TARGET_ROWS_PER_FRAGMENT -> policy.targetRowsPerFragment(((Number) value).longValue());
      case MAX_ROWS_PER_GROUP -> policy.maxRowsPerGroup(((Number) value).longValue());
      case MAX_BYTES_PER_FILE -> policy.maxBytesPerFile(((Number) value).longValue());
      case MATERIALIZE_DELETIONS -> policy.materializeDeletions((Boolean) value);
      case MATERIALIZE_DELETIONS_THRESHOLD -> policy.materializeDeletionsThreshold(((Number) value).doubleValue());
      case NUM_THREADS -> policy.numThreads(((Number) value).longValue());
      case BATCH_SIZE -> policy.batchSize(((Number) value).longValue());
      case MAX_CONCURRENT_TASKS -> policy.maxConcurrentTasks(Math.toIntExact(((Number) value).longValue()));
      case PARTIAL_PROGRESS -> policy.partialProgress(Math.toIntExact(((Number) value).longValue()));
      default -> throw new IllegalStateException("unhandled option " + this);
    }
  }
}
