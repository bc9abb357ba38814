package dev.lancemaintenance.compaction;

/**
 * Stage 1 of a compaction, on the driver: asks Lance's planner which fragments to merge. Reads the
 * latest manifest, writes nothing, so a dry run and the tag pre-flight of optimize can plan freely.
 * The tasks it returns are serializable and carry everything a worker needs except the table.
 */
public final class CompactionPlanner {

  public CompactionPlan plan(CompactionTable table, CompactionPolicy policy) {
    return LanceSdk.call("compact", table.toString(), () -> LanceSdkCompaction.plan(table, policy));
  }
}
