package dev.lancemaintenance.spark;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.compaction.CompactAction;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * The {@code spark} engine of the command line: a {@link SparkCleanupAction} or a compaction on
 * {@link SparkCompactionEngine}, in the Spark session of this JVM, so {@code optimize --engine spark} runs both
 * halves in one session. Engine options: {@code master} (default {@code local[*]}), {@code
 * partitions} (of the decision), {@code distribute_above} (tables with at most this many versions
 * are cleaned in the driver; 0 distributes every table; {@code --distribute-above} wins over it), and Spark settings, which are keys starting
 * with {@code spark.} ({@code spark.driver.memory=2g}); any other key is an error naming it.
 */
public final class SparkMaintenanceEngine extends MaintenanceEngine {
  public SparkMaintenanceEngine() {
    super("spark", Set.of("master", "partitions", "distribute_above", "spark.*"));
  }

  @Override
  public CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions) {
    SparkCleanupAction action =
        LanceMaintenance.of(session("lance-maintenance cleanup", checked(engineOptions))).cleanup(tableUri, storageOptions);
    String partitions = engineOptions.get("partitions");
    if (partitions != null) {
      action.partitions(Integer.parseInt(partitions));
    }
    String distributeAbove = engineOptions.get("distribute_above");
    if (distributeAbove != null) {
      // As --distribute-above, which the command line applies after the engine's options.
      action.distributeAbove(DistributeAbove.parse(distributeAbove, "engine option distribute_above"));
    }
    return action;
  }

  @Override
  public CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions) {
    return LanceMaintenance.of(session("lance-maintenance compact", checked(engineOptions))).compact(tableUri, sdkStorageOptions);
  }

  /** The session of this JVM, created with {@code master} and the {@code spark.*} engine options if there is none. */
  private static SparkSession session(String appName, Map<String, String> engineOptions) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .appName(appName)
            .master(engineOptions.getOrDefault("master", "local[*]"))
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false");
    engineOptions.forEach((key, value) -> {
      if (key.startsWith("spark.")) {
        builder.config(key, value);
      }
    });
    return builder.getOrCreate();
  }
}
