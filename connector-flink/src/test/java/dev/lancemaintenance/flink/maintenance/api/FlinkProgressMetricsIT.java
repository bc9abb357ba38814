package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.flink.maintenance.operator.MaintenanceMetrics;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Flink cleanup's progress as metrics, read as a dashboard reads them: through Flink's own
 * in-memory metric reporter registered in the cluster's configuration (it keeps the metrics of a
 * finished job). Summed over subtasks, they end equal to the result's counters.
 */
class FlinkProgressMetricsIT {
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
          .setNumberTaskManagers(1)
          .setNumberSlotsPerTaskManager(FlinkTestCluster.PARALLELISM)
          .build());

  @TempDir Path dir;

  @Test
  void theProgressMetricsEndEqualToTheResultsCounters() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("metered.lance"));
    table.append(10);
    table.append(10);
    table.deleteWhere("id < 5");
    table.append(10);
    long manifests = table.versions().size();

    CleanupResult result = FlinkTestCluster.cleanup(table.uri()).olderThan(Duration.ZERO).execute();

    CleanupCounters counters = result.counters();
    Map<String, Long> metrics = metricsOfTheJobOn("metered.lance");
    assertThat(counters.filesRemoved()).as("files the cleanup removed").isPositive();
    assertThat(metrics)
        .as("the job's lance_maintenance metrics, summed over subtasks (stage: the highest)")
        .containsEntry(MaintenanceMetrics.MANIFESTS_READ, manifests)
        .containsEntry(MaintenanceMetrics.MANIFESTS_TO_READ, manifests)
        .containsEntry(MaintenanceMetrics.CANDIDATES,
            counters.filesRemoved() + counters.failedDeletes() + counters.deferredDeletes())
        .containsEntry(MaintenanceMetrics.FILES_REMOVED, counters.filesRemoved())
        .containsEntry(MaintenanceMetrics.BYTES_FREED, counters.bytesRemoved())
        .containsEntry(MaintenanceMetrics.FAILED_DELETES, counters.failedDeletes())
        .containsEntry(MaintenanceMetrics.STAGE, (long) CleanupStage.RELEASE.number());
    assertThat(metrics.get(MaintenanceMetrics.FILES_LISTED)).as("files_listed")
        .isGreaterThanOrEqualTo(counters.filesRemoved() - counters.manifestFilesRemoved());
  }

  /** Every metric of the {@code lance_maintenance} groups of the job whose name holds {@code table}. */
  private static Map<String, Long> metricsOfTheJobOn(String table) {
    Map<String, Long> values = new TreeMap<>();
    for (Map.Entry<MetricGroup, Map<String, Metric>> group : REPORTER.getMetricsByGroup().entrySet()) {
      String job = group.getKey().getAllVariables().getOrDefault("<job_name>", "");
      if (!job.contains(table)) {
        continue;
      }
      for (Map.Entry<String, Metric> metric : group.getValue().entrySet()) {
        String identifier = metric.getKey();
        String name = identifier.substring(identifier.lastIndexOf('.') + 1);
        if (!group.getKey().getMetricIdentifier(name).contains("." + MaintenanceMetrics.GROUP + ".")) {
          continue;
        }
        if (metric.getValue() instanceof Counter counter) {
          values.merge(name, counter.getCount(), Long::sum);
        } else if (metric.getValue() instanceof Gauge<?> gauge && gauge.getValue() instanceof Number number) {
          values.merge(name, number.longValue(), name.equals(MaintenanceMetrics.STAGE) ? Math::max : Long::sum);
        }
      }
    }
    return values;
  }
}
