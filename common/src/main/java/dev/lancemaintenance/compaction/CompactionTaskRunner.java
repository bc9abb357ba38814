package dev.lancemaintenance.compaction;

import java.util.Objects;

/**
 * Stage 2 of a compaction, on a worker: opens the table by URI with the SDK's storage options, at
 * the version the plan read, and rewrites one task's fragments. Holds only the serializable table,
 * so an engine ships the runner itself; the SDK handle lives for one call.
 */
public final class CompactionTaskRunner implements CompactionWorker {
  private static final long serialVersionUID = 1L;

  private final CompactionTable table;

  public CompactionTaskRunner(CompactionTable table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  @Override
  public RewrittenTask rewrite(PlannedTask task) {
    return LanceSdk.call("compact", table.toString(), () -> LanceSdkCompaction.rewrite(table, task));
  }
}
