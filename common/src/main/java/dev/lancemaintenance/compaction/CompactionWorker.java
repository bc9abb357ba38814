package dev.lancemaintenance.compaction;

import java.io.Serializable;

/**
 * Runs one planned task where the engine puts it (a pool thread, a Spark executor, a Flink
 * subtask). {@link CompactionTaskRunner} is the real one; engines may wrap it (to count or, in
 * tests, to fail) but never change what it writes.
 */
@FunctionalInterface
public interface CompactionWorker extends Serializable {

  /**
   * Writes the task's merged fragments and reports them, uncommitted. A failure leaves at most
   * unreferenced files behind; running the task again writes new ones, so retrying is safe.
   */
  RewrittenTask rewrite(PlannedTask task);
}
