package dev.lancemaintenance.cli;

import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import dev.lancemaintenance.storage.TableLocation;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/** How every fleet command ({@code cleanup-all}, {@code describe-all}, {@code optimize-all}) prints its rows: one line or JSON object per table. */
final class FleetOutput {
  private FleetOutput() {}

  /**
   * The rows of a fleet command as {@code --json} asks: JSON, or text under "{@code <what>} N tables
   * under ROOT matching PATTERN:".
   */
  static void print(CliArguments parsed, PrintStream out, String what, TableLocation root, String pattern,
      List<TableOutcome> outcomes) {
    if (parsed.flag("json")) {
      printJson(out, root, pattern, outcomes);
    } else {
      printText(out, String.format("%s %d tables under %s matching %s:", what, outcomes.size(), root, pattern), outcomes);
    }
  }

  /** {@code heading}, then a line per table: status, table, its counters as {@code name=value}, its error. */
  private static void printText(PrintStream out, String heading, List<TableOutcome> outcomes) {
    out.println(heading);
    for (TableOutcome outcome : outcomes) {
      StringBuilder line = new StringBuilder(String.format("  %-8s %s", outcome.status().sqlName(), outcome.table()));
      outcome.counters().forEach((name, value) -> line.append(' ').append(name).append('=').append(value));
      outcome.errorMessage().ifPresent(error -> line.append(": ").append(error));
      out.println(line);
    }
    out.flush();
  }

  /** {@code {"root": ..., "pattern": ..., "tables": [{"table", "status", <counters>, "error"}]}}. */
  private static void printJson(PrintStream out, TableLocation root, String pattern, List<TableOutcome> outcomes) {
    Json.printObject(out, json -> {
      json.writeStringField("root", root.toString());
      json.writeStringField("pattern", pattern);
      json.writeArrayFieldStart("tables");
      for (TableOutcome outcome : outcomes) {
        json.writeStartObject();
        json.writeStringField("table", outcome.table());
        json.writeStringField("status", outcome.status().sqlName());
        for (Map.Entry<String, Long> counter : outcome.counters().entrySet()) {
          json.writeNumberField(counter.getKey(), counter.getValue());
        }
        if (outcome.error() != null) {
          json.writeStringField("error", outcome.error());
        }
        json.writeEndObject();
      }
      json.writeEndArray();
    });
  }

  /** Tables that failed or were refused, said on {@code err} when there are any. */
  static long notRun(List<TableOutcome> outcomes, PrintStream err) {
    long notRun = outcomes.stream()
        .filter(o -> o.status() == TableStatus.FAILED || o.status() == TableStatus.REFUSED)
        .count();
    if (notRun > 0) {
      err.println("lance-maintenance: " + notRun + " of " + outcomes.size() + " tables failed or were refused (see their lines)");
    }
    return notRun;
  }

  /** 1 when a table failed or was refused; else 3 when deletes failed somewhere; else 0. */
  static int exitCode(List<TableOutcome> outcomes, PrintStream err) {
    if (FleetOutput.notRun(outcomes, err) > 0) {
      return 1;
    }
    long failedDeletes = outcomes.stream().mapToLong(o -> o.counters().getOrDefault("failed_deletes", 0L)).sum();
    return CleanupCommand.exitCodeOf(failedDeletes, outcomes.size() + " tables", err);
  }

  /** {@code --concurrent-tables}: 1 to 1024, default {@link dev.lancemaintenance.fleet.FleetPool#DEFAULT_CONCURRENT_TABLES}. */
  static int concurrentTables(CliArguments parsed) {
    long concurrent = parsed.longValue("concurrent-tables", dev.lancemaintenance.fleet.FleetPool.DEFAULT_CONCURRENT_TABLES);
    if (concurrent < 1 || concurrent > 1024) {
      throw new UsageException("--concurrent-tables takes 1 to 1024, not " + concurrent);
    }
    return (int) concurrent;
  }

  /** {@code --pattern}, or Lance's table directories. */
  static String pattern(CliArguments parsed) {
    return parsed.value("pattern") == null ? dev.lancemaintenance.fleet.DirectoryNamespace.DEFAULT_PATTERN : parsed.value("pattern");
  }
}
