package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
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
  static final String USAGE =
      "optimize <table-uri> " + CompactionArguments.USAGE + "\n"
          + "        [--older-than DURATION|ISO-INSTANT] [--delete-unverified] [--allow-short-retention] [--no-error-if-tagged-old-versions]\n"
          + "        [--conf HADOOP_KEY=VALUE]... [--dry-run] [--json]";

  private static final Set<String> FLAGS =
      Set.of("delete-unverified", "allow-short-retention", "no-error-if-tagged-old-versions", "dry-run", "json");

  private final Clock clock;
  private final Engines engines;

  OptimizeCommand(Clock clock, Engines engines) {
    this.clock = clock;
    this.engines = engines;
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    Set<String> valued = new HashSet<>(CompactionArguments.VALUED);
    valued.addAll(Set.of("older-than", "conf"));
    CliArguments parsed = CliArguments.parse(args, FLAGS, valued);
    if (parsed.positionals().size() != 1) {
      throw new UsageException("optimize takes exactly one table URI");
    }
    String tableUri = parsed.positionals().get(0);
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
    // One engine for both halves, with the same engine options.
    MaintenanceEngine engine = engines.named(parsed.value("engine"));
    CleanupAction cleanup = engine.cleanup(tableUri, parsed.hadoopConf(), parsed.keyValues("engine-option"));
    OptimizeAction action =
        new OptimizeAction(
            TableLocation.of(tableUri),
            HadoopTableStorage.factory(StorageConf.of(parsed.hadoopConf())),
            CompactionArguments.compactAction(engine, parsed, tableUri),
            cleanup,
            clock);
    try {
      if (parsed.value("older-than") != null) {
        action.olderThan(parsed.value("older-than"));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return action
        .deleteUnverified(parsed.flag("delete-unverified"))
        .allowShortRetention(parsed.flag("allow-short-retention"))
        .errorIfTaggedOldVersions(!parsed.flag("no-error-if-tagged-old-versions"))
        .dryRun(parsed.flag("dry-run"));
  }
}
