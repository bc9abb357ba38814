package dev.lancemaintenance.compaction;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real rewrite with injected failures of one task: before it writes (a task that dies on
 * start) or after (a worker killed once its files are written but before it reported them).
 */
final class FaultyWorker implements CompactionWorker {
  enum FailurePoint {
    BEFORE_WRITING,
    AFTER_WRITING
  }

  private final CompactionWorker real;
  private final int failingTask;
  private final int failures;
  private final FailurePoint point;
  private final AtomicInteger attemptsOfFailingTask = new AtomicInteger();
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger abandonedFiles = new AtomicInteger();

  /** Fails the first {@code failures} attempts of task {@code failingTask} at {@code point}. */
  FaultyWorker(CompactionTable table, int failingTask, int failures, FailurePoint point) {
    this.real = new CompactionTaskRunner(table);
    this.failingTask = failingTask;
    this.failures = failures;
    this.point = point;
  }

  @Override
  public RewrittenTask rewrite(PlannedTask task) {
    calls.incrementAndGet();
    if (task.index() == failingTask) {
      int attempt = attemptsOfFailingTask.incrementAndGet();
      if (attempt <= failures) {
        if (point == FailurePoint.AFTER_WRITING) {
          abandonedFiles.addAndGet((int) real.rewrite(task).counters().filesAdded());
        }
        throw new IllegalStateException("injected failure of " + task + ", attempt " + attempt);
      }
    }
    return real.rewrite(task);
  }

  int calls() {
    return calls.get();
  }

  /** Data files written by attempts that then failed: no commit will ever reference them. */
  int abandonedFiles() {
    return abandonedFiles.get();
  }

  int attemptsOfFailingTask() {
    return attemptsOfFailingTask.get();
  }
}
