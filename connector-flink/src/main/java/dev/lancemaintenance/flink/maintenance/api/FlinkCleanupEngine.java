package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupEngine;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The {@code flink} engine of the command line: a {@link FlinkCleanupAction} on the environment
 * Flink hands out, which is the cluster's under {@code flink run} and a local MiniCluster
 * otherwise. Engine option: {@code parallelism}.
 */
public final class FlinkCleanupEngine implements CleanupEngine {
  @Override
  public String name() {
    return "flink";
  }

  @Override
  public CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions) {
    return LanceFlinkMaintenance.cleanup(environment(engineOptions), tableUri, storageOptions);
  }

  /** The environment Flink hands out, with the {@code parallelism} engine option applied. */
  static StreamExecutionEnvironment environment(Map<String, String> engineOptions) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    String parallelism = engineOptions.get("parallelism");
    if (parallelism != null) {
      env.setParallelism(Integer.parseInt(parallelism));
    }
    return env;
  }
}
