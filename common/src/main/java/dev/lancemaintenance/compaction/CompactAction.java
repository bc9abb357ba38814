package dev.lancemaintenance.compaction;

/**
 * Merges a Lance table's small fragments into larger ones with Lance's own planner, task and commit
 * (the SDK's distributed compaction API): planned on the driver, tasks run where the engine puts
 * them, committed on the driver. Each engine (local, Spark, Flink) implements only where the tasks
 * run and how often a failed one is retried.
 *
 * <p>Compaction deletes nothing: the replaced files stay referenced by the versions before it, so
 * disk use rises until a cleanup removes those versions ({@code optimize} does both).
 *
 * <p>Setters validate their argument and return this action.
 */
public interface CompactAction {

  /** Rows a merged fragment aims at (Lance: 1,048,576). */
  CompactAction targetRowsPerFragment(long rows);

  CompactAction maxRowsPerGroup(long rows);

  CompactAction maxBytesPerFile(long bytes);

  /** Rewrite fragments with many deleted rows even when they are large enough (Lance: true). */
  CompactAction materializeDeletions(boolean materialize);

  /** Share of deleted rows, 0..1, from which a fragment is rewritten (Lance: 0.1). */
  CompactAction materializeDeletionsThreshold(double share);

  /** Threads the SDK uses inside one task. */
  CompactAction numThreads(long threads);

  CompactAction batchSize(long rows);

  /** Tasks running at once; each reads and writes whole fragments, so memory grows with it. */
  CompactAction maxConcurrentTasks(int tasks);

  /**
   * Commit every {@code tasksPerCommit} finished tasks on their own, so a failure late in a long
   * compaction keeps the work already committed; 0 (the default, as Lance) commits once.
   */
  CompactAction partialProgress(int tasksPerCommit);

  /**
   * Sets options by their SQL names ({@code target_rows_per_fragment}, ...; see {@link
   * CompactionOption}); an unknown or repeated name is an error naming it, before anything is read.
   */
  default CompactAction options(java.util.Map<String, String> options) {
    return CompactionOption.applyTo(this, CompactionOption.parseAll(options));
  }

  /** Replaces every setting above at once. */
  CompactAction policy(CompactionPolicy policy);

  /**
   * Where the compaction takes the table's {@link dev.lancemaintenance.storage.TableLease} while it
   * rewrites and commits (so a cleanup cannot remove files it has written but not committed yet):
   * the table as Hadoop storage sees it, with the store's Hadoop settings. By default local and
   * HDFS tables take it with default settings; on other stores it is taken only once this is set
   * (an optimize sets it; a compaction alone without it logs that it takes none).
   */
  CompactAction leaseThrough(
      dev.lancemaintenance.storage.TableLocation location, dev.lancemaintenance.storage.TableStorageFactory storage);

  /** The settings as they are now. */
  CompactionPolicy policy();

  /** Plans on the latest version without writing anything: what {@link #execute()} would merge. */
  CompactionPlan plan();

  /**
   * Runs a plan from {@link #plan()}. The tables's versions since the plan are fine: each commit is
   * rebased onto them, and fails if a concurrent writer rewrote the same fragments.
   */
  CompactResult execute(CompactionPlan plan);

  /** Plans and runs. */
  default CompactResult execute() {
    return execute(plan());
  }
}
