package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.compaction.CompactAction;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The {@code flink} engine of the command line and of {@code flink run}: a {@link
 * FlinkCleanupAction} or a compaction on {@link FlinkCompactionEngine}, on the environment Flink hands out, which is
 * the cluster's under {@code flink run} and a local MiniCluster otherwise. Engine option: {@code
 * parallelism}.
 *
 * <p>The command line prints the result itself, so Flink's own warnings about a local run are noise
 * there: the web UI has no log file, no delegation tokens were obtained, and, at the end of every
 * run, "Failed to get job status... Some data might be lost" from the collect client, which polls
 * the job once more after the per-job MiniCluster has already shut down with the job (the results
 * were fetched by then; nothing is lost). Unless the user set their levels, Flink and its RPC
 * system log only errors under this engine.
 */
public final class FlinkMaintenanceEngine extends MaintenanceEngine {
  /**
   * The {@code distribute_above} of a cleanup unless {@code --distribute-above} is given or the
   * environment's configuration sets {@value DistributeAbove#FLINK_SETTING}.
   */
  private final int distributeAbove;

  /** The command line's {@code --engine flink}: a small table is cleaned in this process ({@link DistributeAbove#DEFAULT}). */
  public FlinkMaintenanceEngine() {
    this(DistributeAbove.DEFAULT);
  }

  private FlinkMaintenanceEngine(int distributeAbove) {
    super("flink", Set.of("parallelism"));
    this.distributeAbove = distributeAbove;
  }

  /**
   * The engine of {@code flink run} ({@code FlinkCleanupJob}): every cleanup is a job on the
   * cluster unless {@code --distribute-above N} is given (or the job's configuration sets {@value
   * DistributeAbove#FLINK_SETTING}). Under {@code flink run} the program is
   * there to submit the job, and Flink fails an application that submits none (application mode:
   * "The application contains no execute() calls"), after the run in its JobManager had cleaned.
   */
  public static FlinkMaintenanceEngine underFlinkRun() {
    return new FlinkMaintenanceEngine(0);
  }

  @Override
  public CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions) {
    StreamExecutionEnvironment env = environment(checked(engineOptions));
    FlinkCleanupAction cleanup = LanceFlinkMaintenance.cleanup(env, tableUri, storageOptions);
    return FlinkCleanupAction.configuredDistributeAbove(env).isPresent() ? cleanup : cleanup.distributeAbove(distributeAbove);
  }

  @Override
  public CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions) {
    return LanceFlinkMaintenance.compact(environment(checked(engineOptions)), tableUri, sdkStorageOptions);
  }

  /**
   * The environment Flink hands out, with the {@code parallelism} engine option applied and Flink's
   * loggers quieted for the command line.
   */
  private static StreamExecutionEnvironment environment(Map<String, String> engineOptions) {
    quietFlinkLogging();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    String parallelism = engineOptions.get("parallelism");
    if (parallelism != null) {
      env.setParallelism(Integer.parseInt(parallelism));
    }
    return env;
  }

  /** Must run before Flink creates its first logger: slf4j-simple fixes a logger's level then. */
  private static void quietFlinkLogging() {
    for (String logger : List.of("org.apache.flink", "org.apache.pekko")) {
      String key = "org.slf4j.simpleLogger.log." + logger;
      if (System.getProperty(key) == null) {
        System.setProperty(key, "error");
      }
    }
  }
}
