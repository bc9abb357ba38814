package dev.lancemaintenance.compaction;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * How a compaction merges fragments and how the run commits: the arguments of {@code
 * lance.compact}, with their names. An absent value means "Lance's default", so a run with an empty
 * policy plans exactly as {@code Dataset.compact()} does.
 *
 * <p>The first seven settings go to the Lance SDK unchanged and decide the plan; the last two only
 * decide how our engines run it. The policy stays on the driver: each planned task carries the
 * SDK's own copy of the options to the workers.
 *
 * @param targetRowsPerFragment rows a merged fragment aims at (Lance: 1,048,576); fragments already
 *     this large are left alone
 * @param maxRowsPerGroup rows per row group in the files written
 * @param maxBytesPerFile a file larger than this is split
 * @param materializeDeletions rewrite fragments whose deleted rows pass the threshold, even when they
 *     are large enough (Lance: true)
 * @param materializeDeletionsThreshold share of deleted rows (0..1) from which a fragment is
 *     rewritten (Lance: 0.1)
 * @param numThreads threads the SDK uses inside one task
 * @param batchSize rows per batch the SDK reads while rewriting
 * @param maxConcurrentTasks tasks running at once; more uses more memory and store bandwidth
 * @param partialProgress tasks per commit: every group of this many finished tasks is committed on
 *     its own, so a failure late in a long compaction keeps the work already committed; 0 commits
 *     everything at once, as Lance does (a failure then commits nothing)
 */
public record CompactionPolicy(
    OptionalLong targetRowsPerFragment,
    OptionalLong maxRowsPerGroup,
    OptionalLong maxBytesPerFile,
    Optional<Boolean> materializeDeletions,
    OptionalDouble materializeDeletionsThreshold,
    OptionalLong numThreads,
    OptionalLong batchSize,
    int maxConcurrentTasks,
    int partialProgress) implements java.io.Serializable {

  /** Tasks at once unless told otherwise: one per core, as the SDK's own compaction uses. */
  public static final int DEFAULT_MAX_CONCURRENT_TASKS = Math.max(1, Runtime.getRuntime().availableProcessors());

  /** Lance's behaviour: one commit for the whole compaction. */
  public static final int NO_PARTIAL_PROGRESS = 0;

  public static final CompactionPolicy DEFAULT = builder().build();

  public CompactionPolicy {
    requirePositive("target_rows_per_fragment", targetRowsPerFragment);
    requirePositive("max_rows_per_group", maxRowsPerGroup);
    requirePositive("max_bytes_per_file", maxBytesPerFile);
    requirePositive("num_threads", numThreads);
    requirePositive("batch_size", batchSize);
    Objects.requireNonNull(materializeDeletions, "materializeDeletions");
    Objects.requireNonNull(materializeDeletionsThreshold, "materializeDeletionsThreshold");
    materializeDeletionsThreshold.ifPresent(threshold -> {
      if (!(threshold >= 0 && threshold <= 1)) {
        throw new IllegalArgumentException(
            "materialize_deletions_threshold must be between 0 and 1: " + threshold);
      }
    });
    if (maxConcurrentTasks < 1) {
      throw new IllegalArgumentException("max_concurrent_tasks must be > 0: " + maxConcurrentTasks);
    }
    if (partialProgress < 0) {
      throw new IllegalArgumentException(
          "partial_progress must be >= 0 (tasks per commit, 0 = one commit): " + partialProgress);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this policy's values, to change some of them. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.targetRowsPerFragment = targetRowsPerFragment;
    builder.maxRowsPerGroup = maxRowsPerGroup;
    builder.maxBytesPerFile = maxBytesPerFile;
    builder.materializeDeletions = materializeDeletions;
    builder.materializeDeletionsThreshold = materializeDeletionsThreshold;
    builder.numThreads = numThreads;
    builder.batchSize = batchSize;
    builder.maxConcurrentTasks = maxConcurrentTasks;
    builder.partialProgress = partialProgress;
    return builder;
  }

  /** Optionals do not serialize; a policy that travels (to an operator of a streaming job) goes as this form. */
  private Object writeReplace() {
    return new SerializedForm(
        targetRowsPerFragment.isPresent() ? targetRowsPerFragment.getAsLong() : null,
        maxRowsPerGroup.isPresent() ? maxRowsPerGroup.getAsLong() : null,
        maxBytesPerFile.isPresent() ? maxBytesPerFile.getAsLong() : null,
        materializeDeletions.orElse(null),
        materializeDeletionsThreshold.isPresent() ? materializeDeletionsThreshold.getAsDouble() : null,
        numThreads.isPresent() ? numThreads.getAsLong() : null,
        batchSize.isPresent() ? batchSize.getAsLong() : null,
        maxConcurrentTasks,
        partialProgress);
  }

  private record SerializedForm(
      Long targetRowsPerFragment,
      Long maxRowsPerGroup,
      Long maxBytesPerFile,
      Boolean materializeDeletions,
      Double materializeDeletionsThreshold,
      Long numThreads,
      Long batchSize,
      int maxConcurrentTasks,
      int partialProgress) implements java.io.Serializable {
    private Object readResolve() {
      return new CompactionPolicy(
          targetRowsPerFragment == null ? OptionalLong.empty() : OptionalLong.of(targetRowsPerFragment),
          maxRowsPerGroup == null ? OptionalLong.empty() : OptionalLong.of(maxRowsPerGroup),
          maxBytesPerFile == null ? OptionalLong.empty() : OptionalLong.of(maxBytesPerFile),
          Optional.ofNullable(materializeDeletions),
          materializeDeletionsThreshold == null ? OptionalDouble.empty() : OptionalDouble.of(materializeDeletionsThreshold),
          numThreads == null ? OptionalLong.empty() : OptionalLong.of(numThreads),
          batchSize == null ? OptionalLong.empty() : OptionalLong.of(batchSize),
          maxConcurrentTasks,
          partialProgress);
    }
  }

  private static void requirePositive(String name, OptionalLong value) {
    Objects.requireNonNull(value, name);
    if (value.isPresent() && value.getAsLong() < 1) {
      throw new IllegalArgumentException(name + " must be > 0: " + value.getAsLong());
    }
  }

  /** Builds a {@link CompactionPolicy}; every SDK setting starts at Lance's default. */
  public static final class Builder {
    private OptionalLong targetRowsPerFragment = OptionalLong.empty();
    private OptionalLong maxRowsPerGroup = OptionalLong.empty();
    private OptionalLong maxBytesPerFile = OptionalLong.empty();
    private Optional<Boolean> materializeDeletions = Optional.empty();
    private OptionalDouble materializeDeletionsThreshold = OptionalDouble.empty();
    private OptionalLong numThreads = OptionalLong.empty();
    private OptionalLong batchSize = OptionalLong.empty();
    private int maxConcurrentTasks = DEFAULT_MAX_CONCURRENT_TASKS;
    private int partialProgress = NO_PARTIAL_PROGRESS;

    private Builder() {}

    public Builder targetRowsPerFragment(long rows) {
      this.targetRowsPerFragment = OptionalLong.of(rows);
      return this;
    }

    public Builder maxRowsPerGroup(long rows) {
      this.maxRowsPerGroup = OptionalLong.of(rows);
      return this;
    }

    public Builder maxBytesPerFile(long bytes) {
      this.maxBytesPerFile = OptionalLong.of(bytes);
      return this;
    }

    public Builder materializeDeletions(boolean value) {
      this.materializeDeletions = Optional.of(value);
      return this;
    }

    public Builder materializeDeletionsThreshold(double share) {
      this.materializeDeletionsThreshold = OptionalDouble.of(share);
      return this;
    }

    public Builder numThreads(long threads) {
      this.numThreads = OptionalLong.of(threads);
      return this;
    }

    public Builder batchSize(long rows) {
      this.batchSize = OptionalLong.of(rows);
      return this;
    }

    public Builder maxConcurrentTasks(int tasks) {
      this.maxConcurrentTasks = tasks;
      return this;
    }

    public Builder partialProgress(int tasksPerCommit) {
      this.partialProgress = tasksPerCommit;
      return this;
    }

    public CompactionPolicy build() {
      return new CompactionPolicy(
          targetRowsPerFragment,
          maxRowsPerGroup,
          maxBytesPerFile,
          materializeDeletions,
          materializeDeletionsThreshold,
          numThreads,
          batchSize,
          maxConcurrentTasks,
          partialProgress);
    }
  }
}
