package dev.lancemaintenance.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionPolicy;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What {@code compact} and {@code optimize} share: the compaction options (the names of {@code
 * lance.compact}'s arguments, dashed) and the printing of named counters.
 */
final class CompactionArguments {
  static final String USAGE =
      "[--target-rows-per-fragment N] [--max-rows-per-group N] [--max-bytes-per-file N]\n"
          + "        [--materialize-deletions true|false] [--materialize-deletions-threshold SHARE]\n"
          + "        [--num-threads N] [--batch-size N] [--max-concurrent-tasks N] [--partial-progress TASKS_PER_COMMIT]\n"
          + "        [--storage-option LANCE_KEY=VALUE]... [--engine local|spark|flink] [--engine-option KEY=VALUE]...";

  static final Set<String> VALUED =
      Set.of(
          "target-rows-per-fragment", "max-rows-per-group", "max-bytes-per-file", "materialize-deletions",
          "materialize-deletions-threshold", "num-threads", "batch-size", "max-concurrent-tasks", "partial-progress",
          "storage-option", "engine", "engine-option");

  private CompactionArguments() {}

  /** A compact action on {@code engine} with the options of the command line. */
  static CompactAction compactAction(MaintenanceEngine engine, CliArguments parsed, String tableUri) {
    CompactAction action = engine.compact(tableUri, parsed.keyValues("storage-option"), parsed.keyValues("engine-option"));
    try {
      return action.policy(policy(parsed));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static CompactionPolicy policy(CliArguments parsed) {
    CompactionPolicy.Builder policy = CompactionPolicy.builder();
    if (parsed.value("target-rows-per-fragment") != null) {
      policy.targetRowsPerFragment(parsed.longValue("target-rows-per-fragment", 0));
    }
    if (parsed.value("max-rows-per-group") != null) {
      policy.maxRowsPerGroup(parsed.longValue("max-rows-per-group", 0));
    }
    if (parsed.value("max-bytes-per-file") != null) {
      policy.maxBytesPerFile(parsed.longValue("max-bytes-per-file", 0));
    }
    if (parsed.value("materialize-deletions") != null) {
      policy.materializeDeletions(booleanValue(parsed, "materialize-deletions"));
    }
    if (parsed.value("materialize-deletions-threshold") != null) {
      policy.materializeDeletionsThreshold(doubleValue(parsed, "materialize-deletions-threshold"));
    }
    if (parsed.value("num-threads") != null) {
      policy.numThreads(parsed.longValue("num-threads", 0));
    }
    if (parsed.value("batch-size") != null) {
      policy.batchSize(parsed.longValue("batch-size", 0));
    }
    if (parsed.value("max-concurrent-tasks") != null) {
      policy.maxConcurrentTasks((int) parsed.longValue("max-concurrent-tasks", 0));
    }
    if (parsed.value("partial-progress") != null) {
      policy.partialProgress((int) parsed.longValue("partial-progress", 0));
    }
    return policy.build();
  }

  private static boolean booleanValue(CliArguments parsed, String name) {
    String value = parsed.value(name).toLowerCase(Locale.ROOT);
    if (!value.equals("true") && !value.equals("false")) {
      throw new UsageException("--" + name + " takes true or false, not '" + parsed.value(name) + "'");
    }
    return Boolean.parseBoolean(value);
  }

  private static double doubleValue(CliArguments parsed, String name) {
    try {
      return Double.parseDouble(parsed.value(name));
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a number, not '" + parsed.value(name) + "'");
    }
  }

  /** Prints a result as aligned text or one JSON object; an error goes to stderr too. */
  static int print(PrintStream out, PrintStream err, boolean json, String title, Map<String, Object> fields) {
    if (!json) {
      out.println(title);
      fields.forEach((name, value) -> out.printf("  %-26s %s%n", name, value));
      return 0;
    }
    try (JsonGenerator generator = Json.generator(out)) {
      generator.writeStartObject();
      for (Map.Entry<String, Object> field : fields.entrySet()) {
        generator.writeFieldName(field.getKey());
        generator.writeObject(field.getValue());
      }
      generator.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.println();
    return 0;
  }

  static int fail(PrintStream out, PrintStream err, boolean json, String table, MaintenanceException e) {
    if (json) {
      print(out, err, true, "", Map.of("table", table, "error", e.getMessage()));
    }
    err.println("lance-maintenance: " + e.getMessage());
    return 1;
  }
}
