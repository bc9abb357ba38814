package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.compaction.RewrittenTask;
import java.io.Serializable;

/**
 * What one compaction subtask reports for one task: its rewritten result, or why it failed for good.
 * A failure is a record rather than a failed job, so the client still commits every complete group
 * of the other tasks ({@code partial_progress}) before it reports the failure.
 *
 * @param taskIndex the planned task
 * @param rewritten the result; null when the task failed
 * @param failure the error message; null when the task succeeded
 */
public record TaskOutcome(int taskIndex, RewrittenTask rewritten, String failure) implements Serializable {
  public TaskOutcome {
    if ((rewritten == null) == (failure == null)) {
      throw new IllegalArgumentException("a task outcome is either a result or a failure");
    }
  }

  public static TaskOutcome of(RewrittenTask rewritten) {
    return new TaskOutcome(rewritten.taskIndex(), rewritten, null);
  }

  public static TaskOutcome failed(int taskIndex, String failure) {
    return new TaskOutcome(taskIndex, null, failure);
  }

  public boolean succeeded() {
    return rewritten != null;
  }
}
