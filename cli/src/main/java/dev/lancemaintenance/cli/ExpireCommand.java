package dev.lancemaintenance.cli;

import dev.lancemaintenance.UserErrors;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.expire.ExpireVersionsAction;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code expire <table-uri> [options]}: {@code expire_versions}, the manifests of the versions the
 * policy expires, without the mark phase; a later {@code cleanup} with the same policy sweeps their
 * files. Runs in this process whatever the engine: it reads only the manifests it expires.
 */
final class ExpireCommand {
  private static final Set<String> OWN_FLAGS = Set.of("json");
  private static final Set<String> OWN_VALUED = Set.of("conf");

  static final String USAGE = OptionArguments.synopsis("expire <table-uri>", usageItems());

  private final Clock clock;

  ExpireCommand(Clock clock) {
    this.clock = clock;
  }

  private static List<String> usageItems() {
    List<String> items = OptionArguments.usageItems(ExpireVersionsAction.CATALOGUE.options());
    items.addAll(List.of("[--json]", "[--conf HADOOP_KEY=VALUE]..."));
    return items;
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    CliArguments parsed = OptionArguments.parse(args, ExpireVersionsAction.CATALOGUE.options(), OWN_FLAGS, OWN_VALUED);
    String tableUri = parsed.onlyPositional("expire takes exactly one table URI");
    ExpireVersionsAction action;
    String table;
    try {
      // Parsed first: a URI with credentials is refused before any library sees it.
      TableLocation location = TableLocation.of(tableUri);
      table = TableLocation.redact(tableUri);
      Map<CleanupOption, Object> options = CleanupCommand.options(parsed, ExpireVersionsAction.CATALOGUE.options());
      action = CleanupOption.applyTo(
          new ExpireVersionsAction(location, TableStorages.factory(StorageConf.of(parsed.hadoopConf())), clock),
          options, clock.instant());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    try (CleanupCommand.Output output = parsed.flag("json")
        ? new CleanupCommand.JsonOutput(out, table)
        : new CleanupCommand.TextOutput(out, table, "expire", "Expired versions of")) {
      if (parsed.flag("dry-run")) {
        action.onRemovedFile(output::file);
      }
      try {
        CleanupResult result = action.execute();
        output.result(result);
        return CleanupCommand.exitCodeOf(result.counters().failedDeletes(), table, err);
      } catch (RuntimeException e) {
        String message = UserErrors.message(e);
        output.error(message);
        err.println("lance-maintenance: " + message);
        return 1;
      }
    }
  }
}
