package dev.lancemaintenance.compaction;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an optimize did: the compaction, then the cleanup. In a dry run nothing is written: the
 * plan says what compaction would merge and the cleanup counters say what a cleanup of the table
 * as it is now would remove, a lower bound of what it removes after compacting (the fragments a
 * compaction replaces become removable only when the versions that reference them expire).
 *
 * @param table the table, redacted
 * @param mode whether anything was written and deleted
 * @param plannedTasks tasks the compaction plan had
 * @param plannedFragments fragments it merges
 * @param compaction what the compaction committed; empty in a dry run
 * @param cleanup what the cleanup removed (or would remove)
 * @param durationMillis wall time of the whole optimize
 */
public record OptimizeResult(
    String table,
    CleanupMode mode,
    int plannedTasks,
    long plannedFragments,
    Optional<CompactResult> compaction,
    CleanupResult cleanup,
    long durationMillis)
    implements Serializable {
  public OptimizeResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(compaction, "compaction");
    Objects.requireNonNull(cleanup, "cleanup");
  }

  /** Bytes of the data files compaction wrote. */
  public long bytesWritten() {
    return compaction.map(c -> c.counters().bytesWritten()).orElse(0L);
  }

  /** Bytes the cleanup removed. */
  public long bytesReclaimed() {
    return cleanup.counters().bytesRemoved();
  }

  /** Change of the table's size on disk: positive when it grew. */
  public long netBytes() {
    return bytesWritten() - bytesReclaimed();
  }

  /** The names of {@link #namedCounters()}, in order: the columns of an optimize's row. */
  public static List<String> counterNames() {
    CleanupResult nothingRemoved = new CleanupResult("", CleanupMode.DRY_RUN, 0, CleanupCounters.ZERO, 0, MarkMode.FULL, 0);
    return List.copyOf(
        new OptimizeResult("", CleanupMode.DRY_RUN, 0, 0, Optional.empty(), nothingRemoved, 0).namedCounters().keySet());
  }

  /**
   * The counters under their result names: compaction's, then cleanup's (bytes removed reported
   * once, as {@code bytes_reclaimed}), then the disk balance. Zero for compaction in a dry run.
   */
  public Map<String, Long> namedCounters() {
    Map<String, Long> named = new LinkedHashMap<>();
    named.put("planned_tasks", (long) plannedTasks);
    named.put("planned_fragments", plannedFragments);
    Map<String, Long> compacted = compaction.map(CompactResult::namedCounters).orElseGet(Map::of);
    for (String name : new String[] {"fragments_removed", "fragments_added", "files_removed", "files_added", "commits"}) {
      named.put(name, compacted.getOrDefault(name, 0L));
    }
    named.put("read_version", compaction.map(CompactResult::readVersion).orElse(cleanup.readVersion()));
    named.put("new_version", compaction.map(CompactResult::newVersion).orElse(cleanup.readVersion()));
    cleanup.namedCounters().forEach((name, value) -> {
      // deferred_deletes is always 0: optimize takes no max_deletes.
      if (!name.equals("bytes_removed") && !name.equals("read_version") && !name.equals("duration_ms")
          && !name.equals("deferred_deletes")) {
        named.put(name, value);
      }
    });
    named.put("bytes_written", bytesWritten());
    named.put("bytes_reclaimed", bytesReclaimed());
    named.put("net_bytes", netBytes());
    named.put("duration_ms", durationMillis);
    return named;
  }

  /**
   * Java serialization (Flink ships a periodic run's result to the next operator) goes through
   * {@link SerializedForm}: {@code Optional} is not serializable.
   */
  private Object writeReplace() {
    return new SerializedForm(
        table, mode, plannedTasks, plannedFragments, compaction.orElse(null), cleanup, durationMillis);
  }

  /** The result with the compaction as a nullable field; read back as the result itself. */
  private record SerializedForm(
      String table,
      CleanupMode mode,
      int plannedTasks,
      long plannedFragments,
      CompactResult compactionOrNull,
      CleanupResult cleanup,
      long durationMillis)
      implements Serializable {
    private Object readResolve() {
      return new OptimizeResult(
          table, mode, plannedTasks, plannedFragments, Optional.ofNullable(compactionOrNull), cleanup, durationMillis);
    }
  }
}
