package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Our Flink batch job on a local mini cluster of parallelism 2 (a new job per run, as in production). */
final class FlinkJobCleanup implements Contender {
  @Override
  public String name() {
    return "flink-job";
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, new Configuration());
    LanceFlinkMaintenance.cleanup(env, table.hadoopUri(), table.hadoopOptions())
        .olderThan(Duration.ZERO)
        .beforeVersion(beforeVersion)
        .execute();
    return -1;
  }
}
