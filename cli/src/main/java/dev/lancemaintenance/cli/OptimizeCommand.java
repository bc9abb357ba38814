package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
import java.io.PrintStream;
import java.time.Clock;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code optimize <table-uri> [options]}: compaction, then cleanup, after the tag pre-flight. A dry
 * run prints what compaction would merge and what a cleanup of the table as it is would remove.
 */
final class OptimizeCommand {
  private static final Set<String> OWN_FLAGS = Set.of("json");

  static final String USAGE = usage();

  private final Clock clock;
  private final Engines engines;

  OptimizeCommand(Clock clock, Engines engines) {
    this.clock = clock;
    this.engines = engines;
  }

  /**
   * The synopsis, generated from optimize's options ({@link OptimizeAction#OPTIONS}): the compaction
   * options and where the compaction runs, then the cleanup options, then the store's settings.
   */
  private static String usage() {
    List<String> items = CompactionArguments.usageItems();
    items.addAll(OptionArguments.usageItems(OptimizeAction.CLEANUP_OPTIONS));
    items.addAll(List.of("[--conf HADOOP_KEY=VALUE]...", "[--json]"));
    return OptionArguments.synopsis("optimize <table-uri>", items);
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    Set<String> ownValued = new HashSet<>(CompactionArguments.OWN_VALUED);
    ownValued.add("conf");
    List<MaintenanceOption> options = OptimizeAction.OPTIONS.options();
    CliArguments parsed = OptionArguments.parse(args, options, OWN_FLAGS, ownValued);
    String tableUri = parsed.onlyPositional("optimize takes exactly one table URI");
    String table = TableLocation.redact(tableUri);
    boolean json = parsed.flag("json");
    OptimizeAction action = configure(parsed, tableUri);
    try {
      OptimizeResult result = action.execute();
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("table", table);
      fields.put("mode", result.mode() == CleanupMode.DRY_RUN ? "dry_run" : "execute");
      fields.putAll(result.namedCounters());
      String title = result.mode() == CleanupMode.DRY_RUN
          ? "Dry run of optimize of " + table + " (cleanup counters are for the table as it is now, a lower bound):"
          : "Optimized " + table + ":";
      int printed = CompactionArguments.print(out, err, json, title, fields);
      return printed != 0 ? printed : CleanupCommand.exitCodeOf(result.cleanup().counters().failedDeletes(), table, err);
    } catch (MaintenanceException e) {
      return CompactionArguments.fail(out, err, json, table, e);
    }
  }

  private OptimizeAction configure(CliArguments parsed, String tableUri) {
    OptimizeAction action = on(engines.named(parsed.value("engine")), parsed, tableUri, clock);
    try {
      return action.optionValues(OptionArguments.values(parsed, OptimizeAction.OPTIONS.options()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /**
   * An optimize of {@code tableUri} with both halves on the one {@code engine}, with the engine,
   * store and SDK settings of the command line and no option of {@link OptimizeAction#OPTIONS} set
   * yet ({@code optimize} and {@code optimize-all} set them).
   */
  static OptimizeAction on(MaintenanceEngine engine, CliArguments parsed, String tableUri, Clock clock) {
    Map<String, String> engineOptions = parsed.keyValues("engine-option");
    CleanupAction cleanup = engine.cleanup(tableUri, parsed.hadoopConf(), engineOptions);
    return new OptimizeAction(
        TableLocation.of(tableUri),
        TableStorages.factory(StorageConf.of(parsed.hadoopConf())),
        engine.compact(tableUri, parsed.keyValues("storage-option"), engineOptions),
        cleanup,
        clock);
  }
}
