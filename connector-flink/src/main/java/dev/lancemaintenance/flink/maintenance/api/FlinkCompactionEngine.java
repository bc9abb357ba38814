package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionEngine;
import java.util.Map;

/**
 * The {@code flink} engine of compaction for the command line: a {@link FlinkCompactAction} on the
 * environment Flink hands out (the cluster's under {@code flink run}, a local MiniCluster
 * otherwise), with the engine options of {@link FlinkCleanupEngine}.
 */
public final class FlinkCompactionEngine implements CompactionEngine {
  @Override
  public String name() {
    return "flink";
  }

  @Override
  public CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions) {
    return LanceFlinkMaintenance.compact(FlinkCleanupEngine.environment(engineOptions), tableUri, sdkStorageOptions);
  }
}
