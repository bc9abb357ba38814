package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.compaction.Compaction;
import org.lance.compaction.CompactionMetrics;
import org.lance.compaction.CompactionOptions;
import org.lance.compaction.CompactionTask;
import org.lance.compaction.RewriteResult;
import org.lance.fragment.DataFile;

/**
 * The only class that calls the Lance SDK. Everything else sees our records, with the SDK's task
 * and result as opaque serializable payloads, so that the SDK stays an optional dependency and is
 * loaded only once {@link LanceSdk#require} has said it is there.
 *
 * <p>Each call opens the table on its own (with its own Arrow allocator) and closes it before
 * returning: no SDK handle outlives a call or crosses a thread or a process.
 */
final class LanceSdkCompaction {
  private LanceSdkCompaction() {}

  /** Lance's planner on the latest version; reads manifests only, writes nothing. */
  static CompactionPlan plan(CompactionTable table, CompactionPolicy policy) {
    return withDataset(table, ReadOptions.Builder::new, "plan the compaction of", dataset -> {
      org.lance.compaction.CompactionPlan sdkPlan = Compaction.planCompaction(dataset, options(policy));
      List<PlannedTask> tasks = new ArrayList<>();
      for (CompactionTask task : sdkPlan.getCompactionTasks()) {
        tasks.add(planned(tasks.size(), task));
      }
      return new CompactionPlan(table.toString(), sdkPlan.getReadVersion(), tasks);
    });
  }

  /**
   * Rewrites one task's fragments into new data files, on the version the plan read. Commits
   * nothing: the files stay unreferenced until {@link #commit}.
   */
  static RewrittenTask rewrite(CompactionTable table, PlannedTask task) {
    CompactionTask sdkTask = (CompactionTask) task.sdkTask();
    return withDataset(
        table,
        () -> new ReadOptions.Builder().setVersion(task.readVersion()),
        "run " + task + " of the compaction of",
        dataset -> {
          RewriteResult result = sdkTask.execute(dataset);
          CompactionMetrics metrics = result.getMetrics();
          CompactionCounters counters =
              new CompactionCounters(
                  metrics.getFragmentsRemoved(),
                  metrics.getFragmentsAdded(),
                  metrics.getFilesRemoved(),
                  metrics.getFilesAdded(),
                  bytesOf(result.getNewFragments()));
          return new RewrittenTask(task.index(), counters, result);
        });
  }

  /**
   * Commits finished tasks as one new version (the SDK first reserves fragment ids, so the table
   * gains two versions) and returns the version that holds them.
   */
  static long commit(CompactionTable table, CompactionPolicy policy, List<RewrittenTask> tasks) {
    List<RewriteResult> results = new ArrayList<>(tasks.size());
    for (RewrittenTask task : tasks) {
      results.add((RewriteResult) task.sdkResult());
    }
    return withDataset(table, ReadOptions.Builder::new, "commit the compaction of", dataset -> {
      Compaction.commitCompaction(dataset, results, options(policy));
      // The SDK advances the handle to the version it committed.
      return dataset.version();
    });
  }

  private static PlannedTask planned(int index, CompactionTask task) {
    List<Integer> ids = new ArrayList<>();
    long rows = 0;
    long files = 0;
    for (FragmentMetadata fragment : task.getTaskData().getFragments()) {
      ids.add(fragment.getId());
      rows += fragment.getNumRows();
      files += fragment.getFiles().size() + (fragment.getDeletionFile() == null ? 0 : 1);
    }
    return new PlannedTask(index, task.getReadVersion(), ids, rows, files, task);
  }

  /** Sizes the writer recorded; a file without a recorded size counts as 0. */
  private static long bytesOf(List<FragmentMetadata> fragments) {
    long bytes = 0;
    for (FragmentMetadata fragment : fragments) {
      for (DataFile file : fragment.getFiles()) {
        Long size = file.getFileSizeBytes();
        bytes += size == null ? 0 : size;
      }
    }
    return bytes;
  }

  /** The SDK options for a policy; package-private so the oracle tests compact twins with the same. */
  static CompactionOptions options(CompactionPolicy policy) {
    CompactionOptions.Builder builder = CompactionOptions.builder();
    policy.targetRowsPerFragment().ifPresent(builder::withTargetRowsPerFragment);
    policy.maxRowsPerGroup().ifPresent(builder::withMaxRowsPerGroup);
    policy.maxBytesPerFile().ifPresent(builder::withMaxBytesPerFile);
    policy.materializeDeletions().ifPresent(builder::withMaterializeDeletions);
    policy.materializeDeletionsThreshold().ifPresent(share -> builder.withMaterializeDeletionsThreshold((float) share));
    policy.numThreads().ifPresent(builder::withNumThreads);
    policy.batchSize().ifPresent(builder::withBatchSize);
    return builder.build();
  }

  private static <T> T withDataset(
      CompactionTable table,
      Supplier<ReadOptions.Builder> options,
      String step,
      Function<Dataset, T> body) {
    ReadOptions readOptions = options.get().setStorageOptions(table.storageOptions()).build();
    try (BufferAllocator allocator = new RootAllocator();
        Dataset dataset = Dataset.open(allocator, table.uri(), readOptions)) {
      return body.apply(dataset);
    } catch (MaintenanceException e) {
      throw e;
    } catch (Exception e) { // the native calls throw checked ones they do not declare (an IOException)
      throw new MaintenanceException("Cannot " + step + " " + table + ": the Lance SDK failed: " + e.getMessage(), e);
    }
  }
}
