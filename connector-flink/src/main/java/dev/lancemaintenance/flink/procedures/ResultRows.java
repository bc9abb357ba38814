package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupResult;
import java.util.Locale;
import org.apache.flink.types.Row;

/**
 * The one mapping from results to SQL rows. Column names are the result's {@link
 * CleanupResult#namedCounters()}; the annotation strings below must spell the same names in the
 * same order (annotations need constants), which {@code ResultRowsTest} checks.
 */
final class ResultRows {
  static final String COUNTERS_ROW =
      "ROW<old_versions BIGINT, bytes_removed BIGINT, data_files_removed BIGINT, deletion_files_removed BIGINT,"
          + " index_files_removed BIGINT, transaction_files_removed BIGINT, manifest_files_removed BIGINT,"
          + " other_files_removed BIGINT, failed_deletes BIGINT, read_version BIGINT, duration_ms BIGINT>";

  static final String FILE_ROW = "ROW<`path` STRING, `kind` STRING, `bytes` BIGINT, `reason` STRING>";

  private ResultRows() {}

  static Row counters(CleanupResult result) {
    return Row.of(result.namedCounters().values().toArray());
  }

  static Row file(CandidateFile file) {
    return Row.of(file.path(), file.kind().name().toLowerCase(Locale.ROOT), file.bytes(), file.reason().sqlName());
  }
}
