package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.CleanupSettings;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code max_deletes} leaves a sweep: at most that many deletes per run, the rest deferred to
 * the next run. A local sweep takes from one shared budget ({@link #tryTake()}); a distributed one
 * cannot ask a shared counter per file, so it counts each partition's files first and gives each
 * partition its share ({@link #quotas}), which are together at most the budget.
 */
public final class DeleteBudget {
  private final AtomicLong remaining;

  /** @param deletes how many deletes this budget allows; {@link CleanupSettings#NO_CAP} for all */
  public DeleteBudget(long deletes) {
    if (deletes < 0) {
      throw new IllegalArgumentException("a delete budget must not be negative: " + deletes);
    }
    this.remaining = new AtomicLong(deletes);
  }

  /** Takes one delete from the budget; false once it is spent (the file is deferred). */
  public boolean tryTake() {
    return remaining.getAndUpdate(left -> left == CleanupSettings.NO_CAP ? left : Math.max(0, left - 1)) > 0;
  }

  /**
   * How many files each partition may delete: the partitions in order, each taking what it holds
   * until {@code budget} is spent. The same counts give the same quotas, so a retried task deletes
   * the same prefix of its partition.
   */
  public static long[] quotas(long[] filesPerPartition, long budget) {
    long[] quotas = new long[filesPerPartition.length];
    long left = budget;
    for (int partition = 0; partition < filesPerPartition.length; partition++) {
      quotas[partition] = Math.min(filesPerPartition[partition], left);
      left -= quotas[partition];
    }
    return quotas;
  }
}
