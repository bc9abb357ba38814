package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.storage.TableStorage;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.OptionalInt;

/**
 * The local engine's own options, beside the cleanup options every engine shares: its threads,
 * slices, spill and walk-ahead, each refused as it is set when out of range (naming the option and
 * the value), and what a run makes of them. None changes what a run decides, only how it spreads
 * its work and memory; {@link LocalCleanupAction}'s setters say what each costs.
 */
final class LocalRunOptions {
  private static final int DEFAULT_PARTITIONS = 16;

  private OptionalInt parallelism = OptionalInt.empty();
  private int partitions = DEFAULT_PARTITIONS;
  /** Set by the caller; otherwise up to the default, small enough to give every thread a slice. */
  private OptionalInt sliceSize = OptionalInt.empty();
  private Path spillDirectory = defaultSpillDirectory();
  private long inMemorySpillRecords = SpillBudget.DEFAULT_RECORDS;
  private long walkAheadBytes = ListingWalks.DEFAULT_BOUND_BYTES;

  private static Path defaultSpillDirectory() {
    return Paths.get(System.getProperty(LocalCleanupAction.SPILL_DIR_PROPERTY, System.getProperty("java.io.tmpdir")));
  }

  void parallelism(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("parallelism must be > 0: " + threads);
    }
    this.parallelism = OptionalInt.of(threads);
  }

  void partitions(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("partitions must be > 0: " + count);
    }
    this.partitions = count;
  }

  void sliceSize(int manifests) {
    if (manifests < 1) {
      throw new IllegalArgumentException("slice size must be > 0: " + manifests);
    }
    this.sliceSize = OptionalInt.of(manifests);
  }

  void inMemorySpillRecords(long records) {
    if (records < 0) {
      throw new IllegalArgumentException("in-memory spill records must be >= 0: " + records);
    }
    this.inMemorySpillRecords = records;
  }

  void walkAheadBytes(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("walk-ahead bytes must be > 0: " + bytes);
    }
    this.walkAheadBytes = bytes;
  }

  void spillDirectory(Path directory) {
    this.spillDirectory = directory;
  }

  /** The run's pool size: the caller's, else what the store suggests. */
  int threadsFor(TableStorage storage) {
    return parallelism.orElseGet(storage::suggestedConcurrency);
  }

  /** The run's spills, hash-partitioned as set, in memory up to the records set. */
  Spills newSpills() {
    return new Spills(spillDirectory, partitions, new SpillBudget(inMemorySpillRecords));
  }

  /** The planner of a run on {@code storage}: the caller's slice size, else one that gives every thread a slice. */
  CleanupPlanner plannerFor(TableStorage storage) {
    return sliceSize.isPresent()
        ? new CleanupPlanner(sliceSize.getAsInt())
        : new CleanupPlanner(CleanupPlanner.DEFAULT_SLICE_SIZE, threadsFor(storage));
  }

  long walkAheadBytes() {
    return walkAheadBytes;
  }
}
