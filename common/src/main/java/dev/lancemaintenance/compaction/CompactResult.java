package dev.lancemaintenance.compaction;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a compaction committed.
 *
 * @param table the table, redacted
 * @param readVersion the version the plan read
 * @param newVersion the version holding the last committed group ({@code readVersion} when the
 *     plan was empty)
 * @param tasks tasks in the plan
 * @param commits commit groups committed (each adds two versions: Lance reserves fragment ids first)
 * @param counters what the committed tasks replaced and wrote
 * @param durationMillis wall time of plan, rewrite and commits
 */
public record CompactResult(
    String table,
    long readVersion,
    long newVersion,
    int tasks,
    int commits,
    CompactionCounters counters,
    long durationMillis)
    implements Serializable {
  public CompactResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(counters, "counters");
  }

  /** The counters under their result names, in the order every engine reports them. */
  public Map<String, Long> namedCounters() {
    Map<String, Long> named = new LinkedHashMap<>();
    named.put("fragments_removed", counters.fragmentsRemoved());
    named.put("fragments_added", counters.fragmentsAdded());
    named.put("files_removed", counters.filesRemoved());
    named.put("files_added", counters.filesAdded());
    named.put("bytes_written", counters.bytesWritten());
    named.put("tasks", (long) tasks);
    named.put("commits", (long) commits);
    named.put("read_version", readVersion);
    named.put("new_version", newVersion);
    named.put("duration_ms", durationMillis);
    return named;
  }
}
