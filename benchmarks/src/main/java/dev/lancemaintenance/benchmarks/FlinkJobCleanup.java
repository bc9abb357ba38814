package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.flink.maintenance.api.FlinkCleanupAction;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Our Flink cleanup on a local mini cluster of parallelism 2 (a new environment per run, as in
 * production). {@code flink-job} marks in full as a Flink batch job whatever the table's size
 * ({@code distribute_above => 0}), what it has always measured; {@code flink-incremental} is a Flink
 * user's daily run ({@code mode => 'incremental'}, every other setting the default) on the ledger
 * and key snapshot of the run the day before ({@link YesterdaysRun}), as {@code local-incremental}
 * and {@code spark-incremental}: a table of up to {@code distribute_above} versions is cleaned in
 * the client.
 */
final class FlinkJobCleanup implements Contender {
  /** The day's commits above yesterday's run, for the daily run; empty for the full run as a job. */
  private final Optional<Integer> newVersions;

  FlinkJobCleanup() {
    this(Optional.empty());
  }

  FlinkJobCleanup(Optional<Integer> newVersions) {
    this.newVersions = newVersions;
  }

  @Override
  public String name() {
    return newVersions.isPresent() ? "flink-incremental" : "flink-job";
  }

  @Override
  public void prepare(Table table) {
    newVersions.ifPresent(count -> YesterdaysRun.leave(table, count));
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, new Configuration());
    FlinkCleanupAction cleanup = LanceFlinkMaintenance.cleanup(env, table.hadoopUri(), table.hadoopOptions())
        .olderThan(Duration.ZERO)
        .beforeVersion(beforeVersion);
    if (newVersions.isPresent()) {
      cleanup.markMode(MarkMode.INCREMENTAL);
    } else {
      cleanup.distributeAbove(0);
    }
    cleanup.execute();
    return -1;
  }
}
