package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a failed task again, in place, up to {@code maxAttempts} times in all, for engines that do
 * not retry tasks themselves (local threads; the Flink operator, whose restart strategy only covers
 * lost subtasks). Safe because an attempt commits nothing: a failed attempt's files are abandoned,
 * unreferenced. The final error names the task and the attempts.
 */
public final class RetryingWorker implements CompactionWorker {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(RetryingWorker.class);

  private final CompactionWorker worker;
  private final int maxAttempts;
  private final String table;

  /**
   * @param table the table, redacted, for the log line of a retry
   */
  public RetryingWorker(CompactionWorker worker, int maxAttempts, String table) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be > 0: " + maxAttempts);
    }
    this.worker = Objects.requireNonNull(worker, "worker");
    this.maxAttempts = maxAttempts;
    this.table = Objects.requireNonNull(table, "table");
  }

  @Override
  public RewrittenTask rewrite(PlannedTask task) {
    RuntimeException first = null;
    for (int attempt = 1; ; attempt++) {
      try {
        return worker.rewrite(task);
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
        if (attempt >= maxAttempts) {
          throw new MaintenanceException(task + " failed " + attempt + " times, last with: " + e.getMessage(), first);
        }
        LOG.warn("lance compact {} [2/3 rewrite]: {} failed, running it again: {}", table, task, e.getMessage());
      }
    }
  }
}
