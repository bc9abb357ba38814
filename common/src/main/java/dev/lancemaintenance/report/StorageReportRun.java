package dev.lancemaintenance.report;

import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.format.Branch;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.RefReader;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The order of one storage report, which every engine executes: the cleanup's plan, the report's
 * mark ({@link MarkReferenceAges}, distributed; only the version stamps come back), the windows
 * placed on the driver ({@link ReportWindows}), then list and classify ({@link ClassifyFiles},
 * distributed; only {@link StorageCounters} come back). Nothing is deleted and no lease is taken.
 */
public final class StorageReportRun {
  private static final Logger LOG = LoggerFactory.getLogger(StorageReportRun.class);

  /** How one engine runs the report's distributed stages. */
  public interface Distribution {
    /** Marks every slice of the plan, keeps the ages for {@link #classify}, returns the version stamps. */
    List<VersionStamp> mark(CleanupPlan plan);

    /** Lists the plan's directories and classifies every file against the ages; the reduced counters. */
    StorageCounters classify(CleanupPlan plan, ReportContext context);
  }

  private StorageReportRun() {}

  /**
   * Reports on the dataset of {@code request} under its policy, and under that policy with each of
   * {@code windows} as {@code older_than}.
   */
  public static StorageReport run(
      TableStorage storage, CleanupPlanner planner, DatasetCleanup request, List<Duration> windows, Distribution engine) {
    return run(storage, CleanupRun.plan(storage, planner, request), windows, engine);
  }

  /**
   * Reports on the cleanup {@code plan} stands for, planned by the engine: an engine that lists
   * from a source of its own (a Spark view of file paths) plans with it.
   */
  public static StorageReport run(TableStorage storage, CleanupPlan plan, List<Duration> windows, Distribution engine) {
    Objects.requireNonNull(windows, "windows");
    RetentionFacts facts = plan.facts();
    List<VersionStamp> stamps = new ArrayList<>(engine.mark(plan));
    stamps.sort(Comparator.comparingLong(VersionStamp::version));
    ReportContext context = context(facts, windows, stamps);
    StorageCounters counters = engine.classify(plan, context);
    StorageReport report = assemble(storage, facts, context, stamps, counters);
    LOG.info("lance describe {}: {} versions, reclaimable now {} files / {} bytes",
        facts.describe(), stamps.size(), report.now().freed().files(), report.now().freed().bytes());
    return report;
  }

  /** The context every classify task gets: the given policy and each window, placed from the stamps. */
  public static ReportContext context(RetentionFacts facts, List<Duration> windows, List<VersionStamp> stamps) {
    List<ReportWindow> placed = windows.stream().map(window -> ReportWindows.of(window, facts, stamps)).toList();
    return new ReportContext(facts.dataset(), facts.nowMillis(), ReportWindows.given(facts, stamps), placed);
  }

  private static StorageReport assemble(
      TableStorage storage, RetentionFacts facts, ReportContext context, List<VersionStamp> stamps, StorageCounters counters) {
    FilesBytes reclaimable = FilesBytes.ZERO;
    for (Map.Entry<KindCategory, FilesBytes> entry : counters.byKind().entrySet()) {
      if (entry.getKey().category() == StorageCategory.RECLAIMABLE) {
        reclaimable = reclaimable.plus(entry.getValue());
      }
    }
    List<StorageReport.WindowResult> windows = new ArrayList<>();
    for (int i = 0; i < context.windows().size(); i++) {
      windows.add(result(context.windows().get(i), counters.freedByWindow().get(i)));
    }
    return new StorageReport(
        facts.table(), facts.dataset(), facts.nowMillis(), facts.policy().toString(),
        versions(facts, stamps), counters.byKind(), result(context.given(), reclaimable), windows,
        counters.unverifiedByAge(), pins(storage, facts, counters), timeline(stamps, counters));
  }

  private static StorageReport.WindowResult result(ReportWindow window, FilesBytes freed) {
    return new StorageReport.WindowResult(window.label(), window.versionsRemoved(), freed, window.refusal());
  }

  private static StorageReport.Versions versions(RetentionFacts facts, List<VersionStamp> stamps) {
    Map<AgeBucket, Long> byAge = new EnumMap<>(AgeBucket.class);
    long oldest = Long.MAX_VALUE;
    long newest = Long.MIN_VALUE;
    for (VersionStamp stamp : stamps) {
      long millis = Math.floorDiv(stamp.timestampNanos(), 1_000_000L);
      oldest = Math.min(oldest, millis);
      newest = Math.max(newest, millis);
      byAge.merge(AgeBucket.of(facts.nowMillis() - millis), 1L, Long::sum);
    }
    return new StorageReport.Versions(stamps.size(), facts.latestVersion(),
        stamps.isEmpty() ? 0 : oldest, stamps.isEmpty() ? 0 : newest, byAge);
  }

  private static List<StorageReport.Pin> pins(TableStorage storage, RetentionFacts facts, StorageCounters counters) {
    List<StorageReport.Pin> pins = new ArrayList<>();
    facts.tagsByVersion().forEach((version, names) -> names.forEach(name -> pins.add(new StorageReport.Pin(
        "tag", name, version, counters.pinnedBy().getOrDefault("tag:" + name, FilesBytes.ZERO)))));
    for (Branch branch : RefReader.listBranches(storage)) {
      FilesBytes held = counters.pinnedBy().get("branch:" + branch.name());
      if (held != null || branch.parentBranch().equals(facts.dataset().branchName())) {
        pins.add(new StorageReport.Pin("branch", branch.name(), branch.parentVersion(), held == null ? FilesBytes.ZERO : held));
      }
    }
    pins.sort(Comparator.comparing(StorageReport.Pin::type).reversed().thenComparing(StorageReport.Pin::name));
    return pins;
  }

  private static List<StorageReport.VersionPoint> timeline(List<VersionStamp> stamps, StorageCounters counters) {
    return stamps.stream().map(stamp -> new StorageReport.VersionPoint(stamp.version(),
        Math.floorDiv(stamp.timestampNanos(), 1_000_000L),
        counters.freedWithVersion().getOrDefault(stamp.version(), FilesBytes.ZERO))).toList();
  }
}
