package dev.lancemaintenance.compaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 3 of a compaction, on the driver: commits finished tasks, in groups of {@code
 * partial_progress} consecutive tasks (all tasks in one group when it is 0). A group commits as soon
 * as its last task is handed in, in whatever order groups complete: each commit is Lance's {@code
 * Rewrite} of disjoint fragments, which the SDK rebases onto the versions committed since the plan.
 *
 * <p>A task that never arrives keeps its group uncommitted; the files of that group's finished tasks
 * stay unreferenced and a later cleanup removes them as it removes any abandoned write. Tasks are
 * handed in on the driver; the methods are synchronized so an engine's callback thread may do it too.
 */
public final class CompactionCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionCommitter.class);

  private final CompactionTable table;
  private final CompactionPolicy policy;
  private final int taskCount;
  private final int groupSize;
  private final Map<Integer, List<RewrittenTask>> waiting = new HashMap<>();
  private CommitProgress progress;

  public CompactionCommitter(CompactionTable table, CompactionPolicy policy, CompactionPlan plan) {
    this.table = Objects.requireNonNull(table, "table");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.taskCount = plan.tasks().size();
    this.groupSize = policy.partialProgress() == CompactionPolicy.NO_PARTIAL_PROGRESS
        ? Math.max(1, taskCount)
        : policy.partialProgress();
    int groups = (taskCount + groupSize - 1) / groupSize;
    this.progress = new CommitProgress(groups, 0, 0, CompactionCounters.ZERO, plan.readVersion());
  }

  /** Hands in a finished task; commits its group if that was the group's last missing task. */
  public synchronized void accept(RewrittenTask task) {
    if (task.taskIndex() >= taskCount) {
      throw new IllegalArgumentException("task " + task.taskIndex() + " is not in a plan of " + taskCount + " tasks");
    }
    int group = task.taskIndex() / groupSize;
    List<RewrittenTask> done = waiting.computeIfAbsent(group, g -> new ArrayList<>());
    if (done.stream().anyMatch(t -> t.taskIndex() == task.taskIndex())) {
      throw new IllegalArgumentException("task " + task.taskIndex() + " was handed in twice");
    }
    done.add(task);
    if (done.size() == sizeOf(group)) {
      // In plan order, whatever order the tasks finished in: the SDK numbers the new fragments in
      // the order of the results, so this gives the ids and layout Lance's own compaction gives.
      done.sort(Comparator.comparingInt(RewrittenTask::taskIndex));
      commit(group, done);
      waiting.remove(group);
    }
  }

  public synchronized CommitProgress progress() {
    return progress;
  }

  private void commit(int group, List<RewrittenTask> tasks) {
    long version = LanceSdk.call("compact", table.toString(), () -> LanceSdkCompaction.commit(table, policy, tasks));
    CompactionCounters counters = CompactionCounters.ZERO;
    for (RewrittenTask task : tasks) {
      counters = counters.plus(task.counters());
    }
    progress = new CommitProgress(
        progress.groups(),
        progress.groupsCommitted() + 1,
        progress.tasksCommitted() + tasks.size(),
        progress.counters().plus(counters),
        Math.max(progress.version(), version));
    LOG.info("lance compact {}: committed group {} ({} tasks) as v{}: {}", table, group, tasks.size(), version, counters);
  }

  private int sizeOf(int group) {
    return Math.min(groupSize, taskCount - group * groupSize);
  }
}
