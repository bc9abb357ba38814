package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.CompactionPlan;
import dev.lancemaintenance.compaction.PlannedTask;
import dev.lancemaintenance.storage.TableLocation;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code compact <table-uri> [options]}: merges small fragments with Lance's planner on the chosen
 * engine and prints what was committed; a dry run prints the plan, one line per task.
 */
final class CompactCommand {
  /** Command-line flags of compact that are not compaction options. */
  private static final Set<String> OWN_FLAGS = Set.of("dry-run", "json");

  static final String USAGE = usage();

  /** The synopsis, generated from the option catalogue so that it lists every option there is. */
  private static String usage() {
    List<String> items = CompactionArguments.usageItems();
    items.addAll(List.of("[--dry-run]", "[--json]"));
    return OptionArguments.synopsis("compact <table-uri>", items);
  }

  private final Engines engines;

  CompactCommand(Engines engines) {
    this.engines = engines;
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    List<MaintenanceOption> options = CompactionOption.CATALOGUE.options();
    CliArguments parsed = OptionArguments.parse(args, options, OWN_FLAGS, CompactionArguments.OWN_VALUED);
    String tableUri = parsed.onlyPositional("compact takes exactly one table URI");
    String table = TableLocation.redact(tableUri);
    boolean json = parsed.flag("json");
    CompactAction action = CompactionArguments.compactAction(engines.named(parsed.value("engine")), parsed, tableUri);
    try {
      if (parsed.flag("dry-run")) {
        CompactionPlan plan = action.plan();
        return CompactionArguments.print(out, err, json, "Dry run of compaction of " + table + ":", planFields(table, plan));
      }
      CompactResult result = action.execute();
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("table", table);
      fields.put("mode", "execute");
      fields.putAll(result.namedCounters());
      return CompactionArguments.print(out, err, json, "Compacted " + table + ":", fields);
    } catch (MaintenanceException e) {
      return CompactionArguments.fail(out, err, json, table, e);
    }
  }

  /** The plan as fields: totals, then one entry per task naming its fragments. */
  static Map<String, Object> planFields(String table, CompactionPlan plan) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("table", table);
    fields.put("mode", "dry_run");
    fields.put("read_version", plan.readVersion());
    fields.put("tasks", (long) plan.tasks().size());
    fields.put("fragments_to_merge", plan.fragmentsToMerge());
    fields.put("files_to_replace", plan.filesToReplace());
    fields.put("rows_to_rewrite", plan.rowsToRewrite());
    for (PlannedTask task : plan.tasks()) {
      String name = "task_" + task.index();
      fields.put(name, "fragments " + task.fragmentIds() + ", " + task.rows() + " rows");
    }
    return fields;
  }
}
