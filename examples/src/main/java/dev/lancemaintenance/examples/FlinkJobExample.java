package dev.lancemaintenance.examples;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Duration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Cleanup as a Flink job: {@link LanceFlinkMaintenance} builds a BATCH job on the environment and
 * runs it. Here the environment is local; submitted with {@code flink run}, the same code runs on
 * the cluster.
 *
 * <p>Run: {@code bin/lance-maintenance example flink-job [table]}.
 */
public final class FlinkJobExample {
  private FlinkJobExample() {}

  public static void main(String[] args) {
    String table = ExampleTable.fromArgs(args, "flink-job-example");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    CleanupResult result = cleanup(env, table, Duration.ZERO);
    System.out.println(result.namedCounters());
  }

  /** Removes the versions of {@code table} older than {@code olderThan} in one Flink job on {@code env}. */
  public static CleanupResult cleanup(StreamExecutionEnvironment env, String table, Duration olderThan) {
    return LanceFlinkMaintenance.cleanup(env, table).olderThan(olderThan).execute();
  }
}
