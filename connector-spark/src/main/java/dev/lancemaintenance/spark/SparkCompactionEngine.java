package dev.lancemaintenance.spark;

import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionEngine;
import java.util.Map;

/**
 * The {@code spark} engine of compaction for the command line: a {@link SparkCompactAction} in the
 * Spark session of this JVM, with the engine options of {@link SparkCleanupEngine} ({@code master},
 * {@code spark.*} settings), so {@code optimize --engine spark} runs both halves in one session.
 */
public final class SparkCompactionEngine implements CompactionEngine {
  @Override
  public String name() {
    return "spark";
  }

  @Override
  public CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions) {
    return LanceMaintenance.of(SparkCleanupEngine.session("lance-maintenance compact", engineOptions))
        .compact(tableUri, sdkStorageOptions);
  }
}
