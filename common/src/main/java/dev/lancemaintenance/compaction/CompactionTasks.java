package dev.lancemaintenance.compaction;

import java.util.Objects;

/**
 * What an engine is handed to run ({@link CompactionEngine#runTasks}): the table, the planned
 * tasks, the worker that rewrites one task (the SDK rewrite; shipped to where the tasks run) and how
 * many tasks may run at once ({@code max_concurrent_tasks}).
 */
public record CompactionTasks(CompactionTable table, CompactionPlan plan, CompactionWorker worker, int maxConcurrentTasks) {
  public CompactionTasks {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(worker, "worker");
  }

  /** The table as logs and errors name it (redacted). */
  public String tableName() {
    return table.toString();
  }
}
