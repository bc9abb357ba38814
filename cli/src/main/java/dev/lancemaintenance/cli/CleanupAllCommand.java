package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.FleetCleanup;
import dev.lancemaintenance.fleet.FleetPool;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableTask;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
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
    String rootUri = parsed.onlyPositional("cleanup-all takes exactly one root URI: the directory that holds the tables");
    TableLocation root;
    FleetCleanup fleet;
    MaintenanceEngine engine;
    Map<String, String> engineOptions;
    int concurrentTables;
    try {
      root = TableLocation.of(rootUri);
      engine = engines.named(parsed.value("engine"));
      engineOptions = CleanupCommand.engineOptions(parsed);
      concurrentTables = FleetOutput.concurrentTables(parsed);
      fleet = FleetCleanup.of(root, TableStorages.factory(StorageConf.of(parsed.hadoopConf())),
          CleanupCommand.options(parsed), clock.instant());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    String pattern = FleetOutput.pattern(parsed);
    List<TableLocation> tables = fleet.tables(root, pattern);
    Map<String, String> hadoopConf = parsed.hadoopConf();
    TableTask throughEngine = fleet.using(t -> engine.cleanup(t.uri(), hadoopConf, engineOptions));
    List<TableOutcome> outcomes = FleetPool.run(tables, concurrentTables, table -> fleet.through(table, throughEngine));
    FleetOutput.print(parsed, out, fleet.dryRun() ? "Dry run of cleanup of" : "Cleaned up", root, pattern, outcomes);
    return FleetOutput.exitCode(outcomes, err);
  }
}
