package dev.lancemaintenance.cleanup;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a cleanup did (or, in a dry run, would do).
 *
 * @param table the table, redacted
 * @param mode whether files were deleted
 * @param readVersion the latest version the plan observed; newer versions were left alone
 * @param counters what was removed
 * @param durationMillis wall time of the run
 */
public record CleanupResult(
    String table, CleanupMode mode, long readVersion, CleanupCounters counters, long durationMillis)
    implements Serializable {
  public CleanupResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(counters, "counters");
  }

  /**
   * The counters under their result names (snake_case, Lance's names where Lance has them), in the
   * order every engine reports them: the one place those names are defined.
   */
  public Map<String, Long> namedCounters() {
    Map<String, Long> named = new LinkedHashMap<>();
    named.put("old_versions", counters.oldVersions());
    named.put("bytes_removed", counters.bytesRemoved());
    named.put("data_files_removed", counters.dataFilesRemoved());
    named.put("deletion_files_removed", counters.deletionFilesRemoved());
    named.put("index_files_removed", counters.indexFilesRemoved());
    named.put("transaction_files_removed", counters.transactionFilesRemoved());
    named.put("manifest_files_removed", counters.manifestFilesRemoved());
    named.put("other_files_removed", counters.otherFilesRemoved());
    named.put("failed_deletes", counters.failedDeletes());
    named.put("read_version", readVersion);
    named.put("duration_ms", durationMillis);
    return named;
  }
}
