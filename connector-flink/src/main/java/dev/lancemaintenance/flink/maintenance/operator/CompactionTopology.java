package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.compaction.CompactionPlan;
import dev.lancemaintenance.compaction.CompactionWorker;
import dev.lancemaintenance.compaction.PlannedTask;
import dev.lancemaintenance.compaction.RetryingWorker;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The compaction job: the plan's tasks from a one-subtask source, spread round-robin over {@code
 * parallelism} rewrite subtasks, each running the SDK's rewrite for its tasks; every outcome goes
 * back to the client, which commits. The planned tasks and outcomes are small (fragment metadata),
 * Java-serialized because they hold immutable JDK lists.
 */
public final class CompactionTopology {
  /** A task runs at most this often inside its subtask before it is reported as failed. */
  public static final int MAX_ATTEMPTS = 2;

  private CompactionTopology() {}

  public static DataStream<TaskOutcome> build(
      StreamExecutionEnvironment env, CompactionPlan plan, CompactionWorker worker, int parallelism, String table) {
    return env.fromData(plan.tasks(), new JavaSerializedType<>(PlannedTask.class))
        .name("compaction tasks " + table)
        .uid("lance-compact-tasks")
        .setParallelism(1)
        .rebalance()
        .map(new RewriteTask(new RetryingWorker(worker, MAX_ATTEMPTS, table)))
        .returns(new JavaSerializedType<>(TaskOutcome.class))
        .name("rewrite fragments " + table)
        .uid("lance-compact-rewrite")
        .setParallelism(parallelism);
  }

  /** Rewrites one task; a task that fails for good becomes a failed outcome. */
  private static final class RewriteTask implements MapFunction<PlannedTask, TaskOutcome> {
    private final CompactionWorker worker;

    RewriteTask(CompactionWorker worker) {
      this.worker = worker;
    }

    @Override
    public TaskOutcome map(PlannedTask task) {
      try {
        return TaskOutcome.of(worker.rewrite(task));
      } catch (RuntimeException e) {
        return TaskOutcome.failed(task.index(), e.getMessage());
      }
    }
  }
}
