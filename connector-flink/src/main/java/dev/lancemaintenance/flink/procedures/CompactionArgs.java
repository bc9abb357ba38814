package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.compaction.CompactAction;

/**
 * The compaction arguments {@code sys.compact} and {@code sys.optimize} share, as Flink hands them
 * over (null when not given), named as in the Spark procedures. Absent ones keep Lance's defaults.
 */
record CompactionArgs(
    Long targetRowsPerFragment,
    Long maxRowsPerGroup,
    Long maxBytesPerFile,
    Boolean materializeDeletions,
    Double materializeDeletionsThreshold,
    Long numThreads,
    Long batchSize,
    Integer maxConcurrentTasks,
    Integer partialProgress) {

  /** Sets every argument given; a bad value fails naming its parameter. */
  CompactAction applyTo(CompactAction action) {
    if (targetRowsPerFragment != null) {
      action.targetRowsPerFragment(targetRowsPerFragment);
    }
    if (maxRowsPerGroup != null) {
      action.maxRowsPerGroup(maxRowsPerGroup);
    }
    if (maxBytesPerFile != null) {
      action.maxBytesPerFile(maxBytesPerFile);
    }
    if (materializeDeletions != null) {
      action.materializeDeletions(materializeDeletions);
    }
    if (materializeDeletionsThreshold != null) {
      action.materializeDeletionsThreshold(materializeDeletionsThreshold);
    }
    if (numThreads != null) {
      action.numThreads(numThreads);
    }
    if (batchSize != null) {
      action.batchSize(batchSize);
    }
    if (maxConcurrentTasks != null) {
      action.maxConcurrentTasks(maxConcurrentTasks);
    }
    if (partialProgress != null) {
      action.partialProgress(partialProgress);
    }
    return action;
  }
}
