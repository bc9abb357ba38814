package dev.lancemaintenance.examples;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import java.time.Duration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Cleanup as a Flink job: {@link LanceFlinkMaintenance} builds a BATCH job on the environment and
 * runs it. Here the environment is local; submitted with {@code flink run}, the same code runs on
 * the cluster. A table of at most {@code distribute_above} versions (5,000 by default), such as
 * this demo's, is cleaned here in the client instead, without a job; {@code .distributeAbove(0)}
 * makes every table a job.
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

  /** Removes the versions of {@code table} older than {@code olderThan}: one Flink job on {@code env}, or in the client. */
  public static CleanupResult cleanup(StreamExecutionEnvironment env, String table, Duration olderThan) {
    return LanceFlinkMaintenance.cleanup(env, table).olderThan(olderThan).execute();
  }
}
