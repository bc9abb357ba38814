package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.UserErrors;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalMaintenanceEngine;
import dev.lancemaintenance.local.LocalStorageReport;
import dev.lancemaintenance.report.ReportWindows;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.report.StorageReportHtml;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.storage.TableStorages;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code describe <table-uri> [options]}: the storage report (what the files are for, what the
 * policy frees now, what each retention window would free), as text, one JSON object, or a
 * self-contained HTML page. Takes the cleanup's policy options from the catalogue, so the report is
 * about exactly the cleanup those options would run; deletes nothing.
 */
final class DescribeCommand {
  private static final Set<String> OWN_FLAGS = Set.of("json");
  private static final Set<String> OWN_VALUED = Set.of("before-timestamp-millis", "html", "windows", "conf", "parallelism", "spill-dir");

  static final String USAGE = usage();

  private final Clock clock;

  DescribeCommand(Clock clock) {
    this.clock = clock;
  }

  /** The synopsis, generated from the catalogue's policy options. */
  private static String usage() {
    List<String> items = OptionArguments.usageItems(CleanupOption.policyOptions());
    items.add(items.indexOf(OptionArguments.usageItem(CleanupOption.OLDER_THAN)) + 1, "[--before-timestamp-millis MS]");
    items.addAll(List.of("[--conf HADOOP_KEY=VALUE]...", "[--parallelism N]", "[--spill-dir DIR]"));
    return OptionArguments.synopsis("describe <table-uri> [--json] [--html FILE] [--windows 0s,1h,1d,7d,30d]", items);
  }

  int run(List<String> args, PrintStream out) {
    CliArguments parsed = OptionArguments.parse(args, CleanupOption.policyOptions(), OWN_FLAGS, OWN_VALUED);
    String tableUri = parsed.onlyPositional("describe takes exactly one table URI");
    LocalCleanupAction policy;
    LocalStorageReport reporter;
    try {
      TableLocation location = TableLocation.of(tableUri);
      TableStorageFactory stores = TableStorages.factory(StorageConf.of(parsed.hadoopConf()));
      policy = CleanupOption.applyTo(new LocalCleanupAction(location, stores, clock), CleanupCommand.options(parsed, CleanupOption.policyOptions()), clock.instant());
      if (parsed.value("before-timestamp-millis") != null) {
        policy.beforeTimestamp(Instant.ofEpochMilli(parsed.longValue("before-timestamp-millis", 0)));
      }
      reporter = new LocalStorageReport(location, stores).windows(windows(parsed));
      Map<String, String> engineOptions = CleanupCommand.engineOptions(parsed);
      if (engineOptions.containsKey(LocalMaintenanceEngine.PARALLELISM)) {
        reporter.parallelism(Integer.parseInt(engineOptions.get(LocalMaintenanceEngine.PARALLELISM)));
      }
      if (engineOptions.containsKey(LocalMaintenanceEngine.SPILL_DIR)) {
        reporter.spillDirectory(Path.of(engineOptions.get(LocalMaintenanceEngine.SPILL_DIR)));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    StorageReport report = reporter.report(policy.request());
    if (parsed.value("html") != null) {
      writeHtml(report, Path.of(parsed.value("html")));
    }
    if (parsed.flag("json")) {
      out.println(report.toJson());
    } else {
      printText(report, out);
    }
    return 0;
  }

  private static List<Duration> windows(CliArguments parsed) {
    if (parsed.count("windows") > 1) {
      throw new UsageException("--windows is given more than once");
    }
    String windows = parsed.value("windows");
    return windows == null ? ReportWindows.DEFAULT_WINDOWS : ReportWindows.parse(windows);
  }

  private static void writeHtml(StorageReport report, Path file) {
    try {
      Files.writeString(file, StorageReportHtml.render(report), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MaintenanceException("Cannot write the storage report of " + report.table() + " to " + file
          + ": " + UserErrors.message(e), e);
    }
  }

  /** The report's rows, one section after the other, as aligned text. */
  static void printText(StorageReport report, PrintStream out) {
    out.printf("Storage of %s (%s) at %s%n", report.table(),
        report.datasetName(), java.time.Instant.ofEpochMilli(report.nowMillis()));
    out.printf("Policy: %s%n", report.policy());
    String section = "";
    for (StorageReport.Row row : report.rows()) {
      if (!row.section().equals(section)) {
        section = row.section();
        out.printf("%n%s%n  %-28s %10s %10s %16s  %s%n", title(section), "", "versions", "files", "bytes", "");
      }
      out.printf("  %-28s %10d %10d %16s  %s%n", row.name(), row.versions(), row.files(), String.format("%,d", row.bytes()), row.detail());
    }
  }

  private static String title(String section) {
    return switch (section) {
      case "versions" -> "Versions";
      case "versions_by_age" -> "Versions by age";
      case "files" -> "Files by kind/category (under the policy)";
      case "reclaimable_now" -> "Reclaimable now (a cleanup with the policy removes)";
      case "what_if" -> "What-if: a cleanup with older_than = window removes";
      case "unverified_by_age" -> "Unreferenced files by age";
      case "tag" -> "Tags (the files each tagged version references)";
      case "branch" -> "Branches (the files of this dataset each branch reads)";
      default -> section;
    };
  }
}
