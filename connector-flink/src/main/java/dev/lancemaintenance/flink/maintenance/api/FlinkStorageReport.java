package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.flink.maintenance.operator.ReportTopology;
import dev.lancemaintenance.report.ReportContext;
import dev.lancemaintenance.report.ReportWindows;
import dev.lancemaintenance.report.StorageCounters;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.report.StorageReportRun;
import dev.lancemaintenance.report.VersionStamp;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * The storage report as Flink BATCH jobs ({@link StorageReportRun}, wired by {@link
 * ReportTopology}): one job reads the versions' stamps, the client places the windows, a second job
 * classifies every listed file against the ages of its key. The client holds the plan, a stamp per
 * version and a counter set per subtask, never a path. Deletes nothing; switches the environment to
 * BATCH execution mode.
 */
public final class FlinkStorageReport {
  private final StreamExecutionEnvironment env;
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private List<Duration> windows = ReportWindows.DEFAULT_WINDOWS;

  public FlinkStorageReport(StreamExecutionEnvironment env, TableLocation table, TableStorageFactory storageFactory) {
    this.env = Objects.requireNonNull(env, "env");
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
  }

  /** The what-if windows (default {@link ReportWindows#DEFAULT_WINDOWS}). */
  public FlinkStorageReport windows(List<Duration> windows) {
    this.windows = List.copyOf(windows);
    return this;
  }

  /** The report on what {@code request} (a cleanup action's {@code request()}) would clean. */
  public StorageReport report(DatasetCleanup request) {
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    try (TableStorage storage = storageFactory.open(table)) {
      return StorageReportRun.run(storage, new CleanupPlanner(), request, windows, new FlinkRun());
    }
  }

  private final class FlinkRun implements StorageReportRun.Distribution {
    @Override
    public List<VersionStamp> mark(CleanupPlan plan) {
      return collect(ReportTopology.stamps(env, table, storageFactory, plan), "versions");
    }

    @Override
    public StorageCounters classify(CleanupPlan plan, ReportContext context) {
      StorageCounters total = context.newCounters();
      collect(ReportTopology.counters(env, table, storageFactory, plan, context), "files").forEach(total::merge);
      return total;
    }

    private <T> List<T> collect(DataStream<T> stream, String what) {
      List<T> collected = new ArrayList<>();
      try (CloseableIterator<T> results = stream.executeAndCollect("lance describe " + table + " (" + what + ")")) {
        results.forEachRemaining(collected::add);
      } catch (Exception e) {
        throw FlinkFailures.unwrap(table.toString(), e);
      }
      return collected;
    }
  }
}
