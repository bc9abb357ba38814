package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceException;

/**
 * A compaction task failed for good (after the engine's retries) or a commit failed. Groups
 * committed before the failure stay committed ({@code partial_progress}); the rest of the written
 * files are referenced by no version, so every version reads as before and a cleanup removes them
 * once they are older than its unverified threshold.
 */
public class CompactionFailedException extends MaintenanceException {
  private final CommitProgress progress;

  public CompactionFailedException(String table, CommitProgress progress, RuntimeException cause) {
    super(
        "Cannot compact "
            + table
            + ": "
            + cause.getMessage()
            + ". Committed "
            + progress.groupsCommitted()
            + " of "
            + progress.groups()
            + " commit group(s)"
            + (progress.groupsCommitted() > 0 ? " (up to v" + progress.version() + ")" : "")
            + "; files written by uncommitted tasks are unreferenced and a later cleanup removes them."
            + " Run the compaction again to merge the rest.",
        cause);
    this.progress = progress;
  }

  /** What stayed committed. */
  public CommitProgress progress() {
    return progress;
  }
}
