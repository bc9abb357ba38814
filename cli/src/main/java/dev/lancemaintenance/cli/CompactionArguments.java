package dev.lancemaintenance.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionOption;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code compact} and {@code optimize} share: the compaction options (generated from {@link
 * CompactionOption}), where the compaction runs, and the printing of named counters.
 */
final class CompactionArguments {
  /** Command-line arguments of compaction that are not compaction options: where and how it runs. */
  static final Set<String> OWN_VALUED = Set.of("storage-option", "engine", "engine-option");

  private CompactionArguments() {}

  /** The synopsis items of the compaction options, then where the compaction runs. */
  static List<String> usageItems() {
    List<String> items = OptionArguments.usageItems(CompactionOption.CATALOGUE.options());
    items.addAll(List.of(
        "[--storage-option LANCE_KEY=VALUE]...", "[--engine local|spark|flink]", "[--engine-option KEY=VALUE]..."));
    return items;
  }

  /** A compact action on {@code engine} with the compaction options given on the command line. */
  static CompactAction compactAction(MaintenanceEngine engine, CliArguments parsed, String tableUri) {
    CompactAction action = engine.compact(tableUri, parsed.keyValues("storage-option"), parsed.keyValues("engine-option"));
    Map<CompactionOption, Object> values = new EnumMap<>(CompactionOption.class);
    values.putAll(OptionCatalogue.only(
        CompactionOption.class, OptionArguments.values(parsed, CompactionOption.CATALOGUE.options())));
    try {
      return CompactionOption.applyTo(action, values);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
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
