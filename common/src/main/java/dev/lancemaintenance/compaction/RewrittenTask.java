package dev.lancemaintenance.compaction;

import java.io.Serializable;
import java.util.Objects;

/**
 * A task a worker finished: its files are written but not yet part of any version. It becomes
 * visible only when {@link CompactionCommitter} commits it; until then its files are unreferenced
 * and a cleanup treats them as an in-flight write.
 *
 * @param taskIndex the {@link PlannedTask#index()} it completes
 * @param counters what the task replaced and wrote
 * @param sdkResult the SDK's {@code RewriteResult}, opaque here, Java-serializable
 */
public record RewrittenTask(int taskIndex, CompactionCounters counters, Serializable sdkResult)
    implements Serializable {
  public RewrittenTask {
    Objects.requireNonNull(counters, "counters");
    Objects.requireNonNull(sdkResult, "sdkResult");
  }
}
