package dev.lancemaintenance.compaction;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What a compaction will merge, decided on the driver by Lance's own planner: the tasks, each a
 * group of adjacent small fragments (or fragments with many deleted rows) that become fewer, larger
 * ones. An empty plan means the table needs no compaction.
 *
 * @param table the table, redacted
 * @param readVersion the version planned against; every task rewrites it
 * @param tasks the work, in plan order
 */
public record CompactionPlan(String table, long readVersion, List<PlannedTask> tasks) implements Serializable {
  public CompactionPlan {
    Objects.requireNonNull(table, "table");
    tasks = List.copyOf(tasks);
  }

  public boolean isEmpty() {
    return tasks.isEmpty();
  }

  /** Fragments the plan merges, over all tasks. */
  public long fragmentsToMerge() {
    return tasks.stream().mapToLong(task -> task.fragmentIds().size()).sum();
  }

  /** Data and deletion files the plan replaces, over all tasks. */
  public long filesToReplace() {
    return tasks.stream().mapToLong(PlannedTask::filesToReplace).sum();
  }

  /** Live rows the plan rewrites. */
  public long rowsToRewrite() {
    return tasks.stream().mapToLong(PlannedTask::rows).sum();
  }
}
