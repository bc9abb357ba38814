package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.compaction.CompactAction;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;

/**
 * The compaction arguments {@code lance.compact} and {@code lance.optimize} share, in their order,
 * and how they configure a {@link CompactAction}. All optional: an absent one keeps Lance's default.
 */
final class CompactionParameters {
  static final Parameter TABLE =
      Parameter.required(
          "table", DataTypes.StringType, "the table: a path or a URI the Lance SDK opens (file:, s3://, s3a://, ...)");
  static final Parameter TARGET_ROWS_PER_FRAGMENT =
      Parameter.optional("target_rows_per_fragment", DataTypes.LongType, "rows a merged fragment aims at (Lance: 1048576)");
  static final Parameter MAX_ROWS_PER_GROUP =
      Parameter.optional("max_rows_per_group", DataTypes.LongType, "rows per row group in the files written");
  static final Parameter MAX_BYTES_PER_FILE =
      Parameter.optional("max_bytes_per_file", DataTypes.LongType, "a written file larger than this is split");
  static final Parameter MATERIALIZE_DELETIONS =
      Parameter.optional("materialize_deletions", DataTypes.BooleanType, "rewrite fragments with many deleted rows (Lance: true)");
  static final Parameter MATERIALIZE_DELETIONS_THRESHOLD =
      Parameter.optional(
          "materialize_deletions_threshold", DataTypes.DoubleType,
          "share of deleted rows, 0..1, from which a fragment is rewritten (Lance: 0.1)");
  static final Parameter NUM_THREADS =
      Parameter.optional("num_threads", DataTypes.LongType, "threads the SDK uses inside one task");
  static final Parameter BATCH_SIZE =
      Parameter.optional("batch_size", DataTypes.LongType, "rows per batch the SDK reads while rewriting");
  static final Parameter MAX_CONCURRENT_TASKS =
      Parameter.optional("max_concurrent_tasks", DataTypes.IntegerType, "compaction tasks running at once (default: driver cores)");
  static final Parameter PARTIAL_PROGRESS =
      Parameter.optional(
          "partial_progress", DataTypes.IntegerType,
          "commit every this many finished tasks on their own; 0 (default) commits once");
  static final Parameter OPTIONS =
      Parameter.optional(
          "options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType),
          "the Lance SDK's storage options (e.g. aws_region), not Hadoop keys");

  /** table, then the compaction arguments, then options: the signature of lance.compact. */
  static final List<Parameter> ALL =
      List.of(
          TABLE, TARGET_ROWS_PER_FRAGMENT, MAX_ROWS_PER_GROUP, MAX_BYTES_PER_FILE, MATERIALIZE_DELETIONS,
          MATERIALIZE_DELETIONS_THRESHOLD, NUM_THREADS, BATCH_SIZE, MAX_CONCURRENT_TASKS, PARTIAL_PROGRESS, OPTIONS);

  private CompactionParameters() {}

  /** The SDK storage options of the call. */
  static Map<String, String> storageOptions(ProcedureArgs args) {
    return args.stringMap(OPTIONS);
  }

  /** Sets every compaction argument given; a bad value fails naming its parameter. */
  static CompactAction applyTo(ProcedureArgs args, CompactAction action) {
    args.longValue(TARGET_ROWS_PER_FRAGMENT).ifPresent(action::targetRowsPerFragment);
    args.longValue(MAX_ROWS_PER_GROUP).ifPresent(action::maxRowsPerGroup);
    args.longValue(MAX_BYTES_PER_FILE).ifPresent(action::maxBytesPerFile);
    args.bool(MATERIALIZE_DELETIONS).ifPresent(action::materializeDeletions);
    args.doubleValue(MATERIALIZE_DELETIONS_THRESHOLD).ifPresent(action::materializeDeletionsThreshold);
    args.longValue(NUM_THREADS).ifPresent(action::numThreads);
    args.longValue(BATCH_SIZE).ifPresent(action::batchSize);
    args.longValue(MAX_CONCURRENT_TASKS).ifPresent(value -> action.maxConcurrentTasks(Math.toIntExact(value)));
    args.longValue(PARTIAL_PROGRESS).ifPresent(value -> action.partialProgress(Math.toIntExact(value)));
    return action;
  }
}
