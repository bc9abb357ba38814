package dev.lancemaintenance.cli;

import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorages;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code history <table-uri> [--json] [--limit N]}: the table's maintenance history from its run
 * records, newest first; a run that died shows as {@code unfinished}. Reads only {@code
 * _maintenance/runs/}; deletes nothing.
 */
final class HistoryCommand {
  static final String USAGE = "history <table-uri> [--json] [--limit N] [--conf HADOOP_KEY=VALUE]...";
  static final int DEFAULT_LIMIT = 20;

  private final Clock clock;

  HistoryCommand(Clock clock) {
    this.clock = clock;
  }

  int run(List<String> args, PrintStream out) {
    CliArguments parsed = CliArguments.parse(args, Set.of("json"), Set.of("limit", "conf"));
    String tableUri = parsed.onlyPositional("history takes exactly one table URI: " + USAGE);
    long limit = parsed.longValue("limit", DEFAULT_LIMIT);
    if (limit < 1 || limit > Integer.MAX_VALUE) {
      throw new UsageException("--limit must be at least 1, not " + limit);
    }
    TableLocation location;
    try {
      location = TableLocation.of(tableUri);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    List<RunEntry> runs;
    try (TableStorage storage = TableStorages.open(location, StorageConf.of(parsed.hadoopConf()))) {
      runs = new RunRecords(storage).history((int) limit, clock);
    }
    if (parsed.flag("json")) {
      printJson(out, location, runs);
    } else {
      printText(out, runs);
    }
    return 0;
  }

  /** One line per run: when, what, where it got to, and what it removed or why it failed. */
  private static void printText(PrintStream out, List<RunEntry> runs) {
    if (runs.isEmpty()) {
      out.println("no recorded runs");
      return;
    }
    for (RunEntry run : runs) {
      StringBuilder line = new StringBuilder()
          .append(run.start().startedAt()).append("  ").append(run.state().label())
          .append("  ").append(run.start().action()).append(' ').append(run.start().datasetName())
          .append(" on ").append(run.start().engine()).append("  ").append(run.start().runId());
      run.end().ifPresent(end -> {
        line.append("  ended ").append(end.endedAt());
        if (!end.stage().isEmpty()) {
          line.append(" at ").append(end.stage());
        }
        end.counters().entrySet().stream().sorted(Map.Entry.comparingByKey())
            .filter(counter -> counter.getValue() != 0)
            .forEach(counter -> line.append("  ").append(counter.getKey()).append('=').append(counter.getValue()));
        if (!end.error().isEmpty()) {
          line.append("  error: ").append(end.error());
        }
        run.filesDir().ifPresent(files -> line.append("  files: ").append(end.fileParts().getAsLong()).append(" parts in ").append(files));
      });
      out.println(line);
    }
  }

  /** {@code {"table": ..., "runs": [{<RunEntry.COLUMNS>}]}}, NULL columns left out. */
  private static void printJson(PrintStream out, TableLocation table, List<RunEntry> runs) {
    Json.printObject(out, json -> {
      json.writeStringField("table", table.toString());
      json.writeArrayFieldStart("runs");
      for (RunEntry run : runs) {
        json.writeStartObject();
        List<Object> values = run.values();
        for (int i = 0; i < values.size(); i++) {
          Object value = values.get(i);
          String name = RunEntry.COLUMNS.get(i).name();
          if (value instanceof Long number) {
            json.writeNumberField(name, number);
          } else if (value != null) {
            json.writeStringField(name, value.toString());
          }
        }
        json.writeEndObject();
      }
      json.writeEndArray();
    });
  }
}
