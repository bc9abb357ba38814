package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupEngine;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The {@code spark} engine of the command line: a {@link SparkCleanupAction} in a Spark session of
 * this JVM. Engine options: {@code master} (default {@code local[*]}), {@code partitions} (of the
 * decision), and Spark settings, which are keys starting with {@code spark.} ({@code
 * spark.driver.memory=2g}); other keys are ignored.
 */
public final class SparkCleanupEngine implements CleanupEngine {
  @Override
  public String name() {
    return "spark";
  }

  @Override
  public CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .appName("lance-maintenance cleanup")
            .master(engineOptions.getOrDefault("master", "local[*]"))
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false");
    engineOptions.forEach((key, value) -> {
      if (key.startsWith("spark.")) {
        builder.config(key, value);
      }
    });
    SparkCleanupAction action = LanceMaintenance.of(builder.getOrCreate()).cleanup(tableUri, storageOptions);
    String partitions = engineOptions.get("partitions");
    if (partitions != null) {
      action.partitions(Integer.parseInt(partitions));
    }
    return action;
  }
}
