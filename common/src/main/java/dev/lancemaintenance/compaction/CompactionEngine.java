package dev.lancemaintenance.compaction;

import java.util.function.Consumer;

/**
 * Where a compaction's tasks run, how many at once and how a failed one is retried: the one part of
 * compaction that differs between engines. Planning, the group commits and the result are {@link
 * EngineCompactAction}'s, the same on every engine.
 */
@FunctionalInterface
public interface CompactionEngine {
  /**
   * Runs every task of {@code tasks} and hands each finished one to {@code onRewritten}, on the
   * calling thread, as soon as it is known (so a complete commit group commits while others still
   * run). Throws once a task has failed for good, after handing in whatever else finished; the
   * message should name the task.
   */
  void runTasks(CompactionTasks tasks, Consumer<RewrittenTask> onRewritten);
}
