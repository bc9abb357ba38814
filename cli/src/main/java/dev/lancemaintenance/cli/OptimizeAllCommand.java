package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.FleetOptimize;
import dev.lancemaintenance.fleet.FleetPool;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code optimize-all <root-uri> [--pattern GLOB] [optimize options]}: {@code optimize} of every
 * table of a Lance directory namespace ({@link DirectoryNamespace}), each with the same options on
 * the chosen engine, {@code --concurrent-tables} at a time; one line (or JSON object) per table. A
 * table that fails or is refused is reported in its line and the others go on; the exit code is 1
 * when any did, 3 when only deletes failed.
 */
final class OptimizeAllCommand {
  static final String USAGE =
      "optimize-all <root-uri> [--pattern GLOB] [--concurrent-tables N] [every optimize option]";
  private static final Set<String> OWN_FLAGS = Set.of("json");

  private final Clock clock;
  private final Engines engines;

  OptimizeAllCommand(Clock clock, Engines engines) {
    this.clock = clock;
    this.engines = engines;
  }

  private static Set<String> valued() {
    Set<String> own = new TreeSet<>(CompactionArguments.OWN_VALUED);
    own.addAll(List.of("conf", "pattern", "concurrent-tables"));
    return OptionArguments.valued(OptimizeAction.OPTIONS.options(), own);
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    CliArguments parsed = CliArguments.parse(args, OptionArguments.flags(OptimizeAction.OPTIONS.options(), OWN_FLAGS), valued());
    String rootUri = parsed.onlyPositional("optimize-all takes exactly one root URI: the directory that holds the tables");
    TableLocation root;
    FleetOptimize fleet;
    MaintenanceEngine engine;
    int concurrentTables;
    try {
      root = TableLocation.of(rootUri);
      engine = engines.named(parsed.value("engine"));
      concurrentTables = FleetOutput.concurrentTables(parsed);
      fleet = FleetOptimize.of(root, TableStorages.factory(StorageConf.of(parsed.hadoopConf())),
          parsed.keyValues("storage-option"), OptionArguments.values(parsed, OptimizeAction.OPTIONS.options()), clock);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    String pattern = FleetOutput.pattern(parsed);
    List<TableOutcome> outcomes = FleetPool.run(fleet.tables(root, pattern), concurrentTables,
        table -> fleet.through(table, fleet.using(t -> OptimizeCommand.on(engine, parsed, t.uri(), clock))));
    FleetOutput.print(parsed, out, fleet.dryRun() ? "Dry run of optimize of" : "Optimized", root, pattern, outcomes);
    return FleetOutput.exitCode(outcomes, err);
  }
}
