package dev.lancemaintenance.spark;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.compaction.CompactionEngine;
import dev.lancemaintenance.compaction.CompactionPlan;
import dev.lancemaintenance.compaction.CompactionTasks;
import dev.lancemaintenance.compaction.DriverTaskPool;
import dev.lancemaintenance.compaction.PlannedTask;
import dev.lancemaintenance.compaction.RewrittenTask;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Compaction's tasks on Spark: each planned task is one partition of an RDD of planned tasks,
 * rewritten on an executor by the SDK ({@link dev.lancemaintenance.compaction.CompactionTaskRunner},
 * which opens the table by URI there); the small results come back to the driver, which commits
 * them in groups ({@code partial_progress}) as they arrive.
 *
 * <p>Each partition runs as its own Spark job, at most {@code max_concurrent_tasks} at once, so
 * results reach the committer one by one instead of when the last task ends, and so the setting
 * bounds the memory and store bandwidth a compaction takes from the cluster. A failed task is
 * retried by Spark ({@code spark.task.maxFailures}; local mode: {@code local[N,attempts]}); its
 * earlier attempts' files stay unreferenced. When a task fails for good, no further task starts,
 * running ones finish and their groups still commit, then the run fails naming the task.
 *
 * <p>Executors need the Lance SDK ({@code org.lance:lance-core}) on their classpath.
 *
 * @param spark the session whose executors run the tasks
 */
public record SparkCompactionEngine(SparkSession spark) implements CompactionEngine {
  public SparkCompactionEngine {
    Objects.requireNonNull(spark, "spark");
  }

  @Override
  public void runTasks(CompactionTasks tasks, Consumer<RewrittenTask> onRewritten) {
    CompactionPlan plan = tasks.plan();
    String id = "lance-compact-" + Integer.toHexString(tasks.table().hashCode()) + "-" + System.currentTimeMillis();
    try (JobGroup group = new JobGroup(spark.sparkContext(), id, "lance compact " + tasks.tableName())) {
      group.stage("2/3 rewrite", plan.tasks().size() + " tasks merging " + plan.fragmentsToMerge() + " fragments");
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      // One task per partition: parallelize slices n elements into n partitions, element i in partition i.
      JavaRDD<RewrittenTask> rewritten = jsc.parallelize(plan.tasks(), plan.tasks().size()).map(tasks.worker()::rewrite);
      // The pool's threads are created here, so they inherit the job group set above.
      new DriverTaskPool(tasks.tableName(), tasks.maxConcurrentTasks(), "lance-compact-spark")
          .run(plan.tasks(), task -> runPartition(rewritten, task), onRewritten);
    }
  }

  /** Runs the one partition holding {@code task} as a Spark job and returns its result. */
  private RewrittenTask runPartition(JavaRDD<RewrittenTask> rewritten, PlannedTask task) {
    List<RewrittenTask> results;
    try {
      results = rewritten.collectPartitions(new int[] {task.index()})[0];
    } catch (RuntimeException e) {
      throw new MaintenanceException(task + " failed after Spark's retries: " + rootMessage(e), e);
    }
    if (results.size() != 1 || results.get(0).taskIndex() != task.index()) {
      throw new IllegalStateException("partition " + task.index() + " did not hold " + task + " alone");
    }
    return results.get(0);
  }

  /** Spark wraps a task's exception in its stage failure; the task's own message says more. */
  private static String rootMessage(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause == failure ? String.valueOf(failure.getMessage()) : failure.getMessage() + " (" + cause.getMessage() + ")";
  }
}
