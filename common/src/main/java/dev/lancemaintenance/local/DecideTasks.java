package dev.lancemaintenance.local;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;

/**
 * How the local engine cuts its decision into tasks: which spill partitions each decide task
 * decides, and how many decide at once. A decide task is pure CPU and memory (one partition's
 * reference keys at a time), so how many run at once follows the cores, not the pool's size.
 */
final class DecideTasks {
  /**
   * Marks and listed files one decide task takes when all of them are in memory: a few ms of hash
   * lookups, so that spreading fewer over more tasks would cost more in hand-offs and recorded parts
   * than it saves.
   */
  static final long RECORDS_PER_TASK = 25_000;
  /**
   * Fewer marks and listed files than this in memory per core and the decision is one task: well
   * under a millisecond of lookups, less than a second task's hand-off and recorded part (a file
   * created, 0.5-1 ms on a local disk) would save. A daily run on the key snapshot's path meets
   * only the names its answers did not settle (2,041 on {@code steady}, against 12,120 marks and
   * listed files on its full run).
   */
  static final long RECORDS_PER_CORE_SHARE = 4_096;
  /** Concurrent decide tasks: each holds one partition's reference keys, so memory grows with it. */
  static final int AT_ONCE = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

  private DecideTasks() {}

  /**
   * The partitions each decide task decides, in order: a task per partition when any mark or listed
   * file went to disk; when all of them are in memory ({@code inMemory}, their count), one task per
   * {@value #RECORDS_PER_TASK} of them but at least one per core ({@code cores}, so that the
   * decision still uses the machine) while each core gets {@value #RECORDS_PER_CORE_SHARE} or more,
   * each deciding a run of consecutive partitions (on {@code steady}'s 12,120 records and 2 cores,
   * two tasks and two recorded parts instead of sixteen of each; on its daily run's few unsettled
   * names, one).
   *
   * <p>Exact: a file's decision depends on its partition's marks alone (marks and files are
   * partitioned by the same key), never on the task that decides it; every partition is decided by
   * exactly one task, one partition after another, so a task holds one partition's marks at a time
   * as before. The run's plan records the number of tasks, each of which ends one whole part with
   * the files of all its partitions, and a resume reads every part whatever partitions it held
   * (its list stage partitions the recorded files again by key); a task that dies leaves no whole
   * part and the resume starts over, as for a task of one partition.
   */
  static List<List<Integer>> partitionsPerTask(int partitions, OptionalLong inMemory, int cores) {
    int tasks = inMemory.isEmpty()
        ? partitions
        : (int) Math.min(partitions, Math.max(1, Math.max(
            Math.min(cores, ceilDiv(inMemory.getAsLong(), RECORDS_PER_CORE_SHARE)),
            ceilDiv(inMemory.getAsLong(), RECORDS_PER_TASK))));
    List<List<Integer>> groups = new ArrayList<>(tasks);
    for (int task = 0; task < tasks; task++) {
      int from = (int) ((long) task * partitions / tasks);
      int to = (int) ((long) (task + 1) * partitions / tasks);
      groups.add(IntStream.range(from, to).boxed().toList());
    }
    return groups;
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
