package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.compaction.CompactionEngine;
import dev.lancemaintenance.compaction.CompactionPlan;
import dev.lancemaintenance.compaction.CompactionTasks;
import dev.lancemaintenance.compaction.RewrittenTask;
import dev.lancemaintenance.flink.maintenance.operator.CompactionTopology;
import dev.lancemaintenance.flink.maintenance.operator.TaskOutcome;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * Compaction's tasks as a Flink BATCH job: planned here, in the client; the tasks run as a parallel rewrite
 * operator of {@code min(max_concurrent_tasks, tasks)} subtasks on the task managers, each opening
 * the table by URI with the Lance SDK; the outcomes stream back and the client commits them in
 * groups ({@code partial_progress}).
 *
 * <p>A failed task is run again inside its subtask (once); a lost subtask is restarted by the job's
 * restart strategy. A task that fails for good comes back as a failed outcome, not a failed job, so
 * every complete group of the others still commits before the run reports the failure. In BATCH
 * mode the outcomes reach the client when the rewrite stage ends.
 *
 * <p>The task managers and the client need the Lance SDK ({@code org.lance:lance-core}).
 *
 * @param env the environment the job runs in (the procedure context's, or the caller's)
 */
public record FlinkCompactionEngine(StreamExecutionEnvironment env) implements CompactionEngine {
  public FlinkCompactionEngine {
    Objects.requireNonNull(env, "env");
  }

  @Override
  public void runTasks(CompactionTasks tasks, Consumer<RewrittenTask> onRewritten) {
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    CompactionPlan plan = tasks.plan();
    int parallelism = Math.max(1, Math.min(tasks.maxConcurrentTasks(), plan.tasks().size()));
    String failure = null;
    try (CloseableIterator<TaskOutcome> outcomes =
        CompactionTopology.build(env, plan, tasks.worker(), parallelism, tasks.tableName())
            .executeAndCollect("lance compact " + tasks.tableName())) {
      while (outcomes.hasNext()) {
        TaskOutcome outcome = outcomes.next();
        if (outcome.succeeded()) {
          onRewritten.accept(outcome.rewritten());
        } else if (failure == null) {
          failure = outcome.failure();
        }
      }
    } catch (MaintenanceException e) {
      throw e;
    } catch (Exception e) {
      throw FlinkFailures.unwrap(tasks.tableName(), e);
    }
    if (failure != null) {
      throw new MaintenanceException(failure);
    }
  }
}
