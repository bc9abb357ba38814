package dev.lancemaintenance.cli;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.FleetDescribe;
import dev.lancemaintenance.fleet.FleetPool;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * {@code describe-all <root-uri> [--pattern GLOB] [policy options]}: the storage report of every
 * table of a Lance directory namespace ({@link DirectoryNamespace}), each as {@code describe
 * <table>} under the same policy and "now", {@code --concurrent-tables} at a time, one line (or
 * JSON object) of totals per table. A table that fails is reported in its line and the others go
 * on; the exit code is 1 when any did. Deletes nothing.
 */
final class DescribeAllCommand {
  private static final Set<String> OWN_FLAGS = Set.of("json");
  private static final Set<String> OWN_VALUED = Set.of("pattern", "concurrent-tables", "conf");

  static final String USAGE = OptionArguments.synopsis(
      "describe-all <root-uri> [--pattern GLOB] [--concurrent-tables N] [--json]",
      usageItems());

  private final Clock clock;

  DescribeAllCommand(Clock clock) {
    this.clock = clock;
  }

  private static List<String> usageItems() {
    List<String> items = OptionArguments.usageItems(CleanupOption.policyOptions());
    items.add("[--conf HADOOP_KEY=VALUE]...");
    return items;
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    CliArguments parsed = OptionArguments.parse(args, CleanupOption.policyOptions(), OWN_FLAGS, OWN_VALUED);
    String rootUri = parsed.onlyPositional("describe-all takes exactly one root URI: the directory that holds the tables");
    TableLocation root;
    FleetDescribe fleet;
    int concurrentTables;
    try {
      root = TableLocation.of(rootUri);
      concurrentTables = FleetOutput.concurrentTables(parsed);
      fleet = FleetDescribe.of(root, TableStorages.factory(StorageConf.of(parsed.hadoopConf())),
          CleanupCommand.options(parsed, CleanupOption.policyOptions()), clock.instant());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    String pattern = FleetOutput.pattern(parsed);
    List<TableOutcome> outcomes = FleetPool.run(fleet.tables(root, pattern), concurrentTables,
        table -> fleet.onWorker(table, Long.MAX_VALUE));
    FleetOutput.print(parsed, out, "Storage of", root, pattern, outcomes);
    return FleetOutput.notRun(outcomes, err) > 0 ? 1 : 0;
  }
}
