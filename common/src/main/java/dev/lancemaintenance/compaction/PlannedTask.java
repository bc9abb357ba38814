package dev.lancemaintenance.compaction;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One unit of compaction work, made on the driver by {@link CompactionPlanner} and run on a worker
 * by {@link CompactionTaskRunner}: the SDK's own task, plus what we report about it.
 *
 * @param index position in the plan; commit groups are runs of consecutive indices
 * @param readVersion the table version the plan read; the worker rewrites the fragments as of it
 * @param fragmentIds the fragments this task merges
 * @param rows live rows of those fragments
 * @param filesToReplace data and deletion files of those fragments
 * @param sdkTask the SDK's {@code CompactionTask}, opaque here so that nothing but the SDK caller
 *     needs the SDK's classes; Java-serializable, as the SDK made it
 */
public record PlannedTask(
    int index, long readVersion, List<Integer> fragmentIds, long rows, long filesToReplace, Serializable sdkTask)
    implements Serializable {
  public PlannedTask {
    if (index < 0) {
      throw new IllegalArgumentException("task index must be >= 0: " + index);
    }
    fragmentIds = List.copyOf(fragmentIds);
    Objects.requireNonNull(sdkTask, "sdkTask");
  }

  @Override
  public String toString() {
    return "task " + index + " (fragments " + fragmentIds + " at v" + readVersion + ")";
  }
}
