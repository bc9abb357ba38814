package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.FleetCleanup;
import dev.lancemaintenance.fleet.FleetPool;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code cleanup-all <root-uri> [--pattern GLOB] [cleanup options]}: the cleanup of every table of
 * a Lance directory namespace ({@link DirectoryNamespace}), each as {@code cleanup <table>} with the
 * same options and the same "now", {@code --concurrent-tables} at a time; one line (or JSON object)
 * per table. A table that fails or is refused is reported in its line and the others go on; the
 * exit code is 1 when any did, 3 when only deletes failed.
 */
final class CleanupAllCommand {
  static final String USAGE =
      "cleanup-all <root-uri> [--pattern GLOB] [--concurrent-tables N] [every cleanup option]";
  private static final Set<String> OWN_VALUED = Set.of("pattern", "concurrent-tables");

  private final Clock clock;
  private final Engines engines;

  CleanupAllCommand(Clock clock, Engines engines) {
    this.clock = clock;
    this.engines = engines;
  }

  private static Set<String> valued() {
    Set<String> valued = new TreeSet<>(CleanupCommand.valued());
    // One cutoff for every table is --older-than's; the millisecond form stays with cleanup.
    valued.remove("before-timestamp-millis");
    valued.addAll(OWN_VALUED);
    return valued;
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    CliArguments parsed = CliArguments.parse(args, CleanupCommand.flags(), valued());
    if (parsed.positionals().size() != 1) {
      throw new UsageException("cleanup-all takes exactly one root URI: the directory that holds the tables");
    }
    TableLocation root;
    FleetCleanup fleet;
    MaintenanceEngine engine;
    Map<String, String> engineOptions;
    int concurrentTables;
    try {
      root = TableLocation.of(parsed.positionals().get(0));
      engine = engines.named(parsed.value("engine"));
      engineOptions = CleanupCommand.engineOptions(parsed);
      long concurrent = parsed.longValue("concurrent-tables", FleetPool.DEFAULT_CONCURRENT_TABLES);
      if (concurrent < 1 || concurrent > 1024) {
        throw new UsageException("--concurrent-tables takes 1 to 1024, not " + concurrent);
      }
      concurrentTables = (int) concurrent;
      fleet = FleetCleanup.of(root, HadoopTableStorage.factory(StorageConf.of(parsed.hadoopConf())),
          CleanupCommand.options(parsed), clock.instant());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    String pattern = parsed.value("pattern") == null ? DirectoryNamespace.DEFAULT_PATTERN : parsed.value("pattern");
    List<TableLocation> tables = fleet.tables(root, pattern);
    Map<String, String> hadoopConf = parsed.hadoopConf();
    List<TableOutcome> outcomes = FleetPool.run(tables, concurrentTables,
        table -> fleet.through(table, t -> engine.cleanup(t.uri(), hadoopConf, engineOptions)));
    if (parsed.flag("json")) {
      printJson(out, root, pattern, outcomes);
    } else {
      printText(out, root, pattern, fleet.dryRun(), outcomes);
    }
    return exitCode(outcomes, err);
  }

  private static void printText(PrintStream out, TableLocation root, String pattern, boolean dryRun, List<TableOutcome> outcomes) {
    out.printf("%s %d tables under %s matching %s:%n",
        dryRun ? "Dry run of cleanup of" : "Cleaned up", outcomes.size(), root, pattern);
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

  /** 1 when a table failed or was refused; else 3 when deletes failed somewhere; else 0. */
  private static int exitCode(List<TableOutcome> outcomes, PrintStream err) {
    long notRun = outcomes.stream()
        .filter(o -> o.status() == TableStatus.FAILED || o.status() == TableStatus.REFUSED)
        .count();
    if (notRun > 0) {
      err.println("lance-maintenance: " + notRun + " of " + outcomes.size() + " tables failed or were refused (see their lines)");
      return 1;
    }
    long failedDeletes = outcomes.stream().mapToLong(o -> o.counters().getOrDefault("failed_deletes", 0L)).sum();
    return CleanupCommand.exitCodeOf(failedDeletes, outcomes.size() + " tables", err);
  }
}
