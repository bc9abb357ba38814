package dev.lancemaintenance.compaction;

import java.util.Objects;

/**
 * What a compaction has committed so far.
 *
 * @param groups commit groups in the plan
 * @param groupsCommitted groups now part of the table
 * @param tasksCommitted tasks in those groups
 * @param counters what the committed tasks replaced and wrote
 * @param version the table version holding the last committed group; the plan's read version while
 *     nothing is committed
 */
public record CommitProgress(
    int groups, int groupsCommitted, int tasksCommitted, CompactionCounters counters, long version) {
  public CommitProgress {
    Objects.requireNonNull(counters, "counters");
  }
}
