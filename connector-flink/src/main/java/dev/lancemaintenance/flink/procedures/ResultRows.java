package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.runs.RunEntry;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.types.Row;

/**
 * The one mapping from results to SQL rows. Column names are the result's {@link
 * CleanupResult#row()}; the annotation strings below must spell the same names in the
 * same order (annotations need constants), which {@code ResultRowsTest} checks.
 */
final class ResultRows {
  static final String COUNTERS_ROW =
      "ROW<old_versions BIGINT, bytes_removed BIGINT, data_files_removed BIGINT, deletion_files_removed BIGINT,"
          + " index_files_removed BIGINT, transaction_files_removed BIGINT, manifest_files_removed BIGINT,"
          + " other_files_removed BIGINT, failed_deletes BIGINT, deferred_deletes BIGINT, read_version BIGINT,"
          + " duration_ms BIGINT, mark_mode STRING, manifests_read BIGINT, resumed_from STRING>";

  /** {@code CompactResult.namedCounters()}. */
  static final String COMPACT_ROW =
      "ROW<fragments_removed BIGINT, fragments_added BIGINT, files_removed BIGINT, files_added BIGINT,"
          + " bytes_written BIGINT, tasks BIGINT, commits BIGINT, read_version BIGINT, new_version BIGINT,"
          + " duration_ms BIGINT>";

  /** {@code OptimizeResult.namedCounters()}. */
  static final String OPTIMIZE_ROW =
      "ROW<planned_tasks BIGINT, planned_fragments BIGINT, fragments_removed BIGINT, fragments_added BIGINT,"
          + " files_removed BIGINT, files_added BIGINT, commits BIGINT, read_version BIGINT, new_version BIGINT,"
          + " old_versions BIGINT, data_files_removed BIGINT, deletion_files_removed BIGINT,"
          + " index_files_removed BIGINT, transaction_files_removed BIGINT, manifest_files_removed BIGINT,"
          + " other_files_removed BIGINT, failed_deletes BIGINT, bytes_written BIGINT, bytes_reclaimed BIGINT,"
          + " net_bytes BIGINT, duration_ms BIGINT>";

  static final String FILE_ROW = "ROW<`path` STRING, `kind` STRING, `bytes` BIGINT, `reason` STRING>";

  /** {@code sys.cleanup_all}'s rows: table, status, {@link #COUNTERS_ROW}'s counters (NULL unless the table ran), error. */
  static final String FLEET_CLEANUP_ROW =
      "ROW<`table` STRING, `status` STRING, old_versions BIGINT, bytes_removed BIGINT, data_files_removed BIGINT,"
          + " deletion_files_removed BIGINT, index_files_removed BIGINT, transaction_files_removed BIGINT,"
          + " manifest_files_removed BIGINT, other_files_removed BIGINT, failed_deletes BIGINT, deferred_deletes BIGINT,"
          + " read_version BIGINT, duration_ms BIGINT, `error` STRING>";

  /** A tag after create, move or delete: its branch is NULL for main. */
  static final String TAG_ROW = "ROW<`tag` STRING, `branch` STRING, `version` BIGINT>";

  /** {@code sys.describe_storage}'s rows: {@code StorageReport.Row}, as Spark's {@code lance.describe_storage}. */
  static final String STORAGE_ROW =
      "ROW<`section` STRING, `name` STRING, `versions` BIGINT, `files` BIGINT, `bytes` BIGINT, `detail` STRING>";

  /** {@code sys.maintenance_history}'s rows: {@code RunEntry.COLUMNS}, timestamps as TIMESTAMP_LTZ. */
  static final String HISTORY_ROW =
      "ROW<`run_id` STRING, `state` STRING, `action` STRING, `engine` STRING, `dataset` STRING,"
          + " `started_at` TIMESTAMP_LTZ(3), `ended_at` TIMESTAMP_LTZ(3), `stage` STRING, `mark_mode` STRING,"
          + " `manifests_read` BIGINT, `old_versions` BIGINT, `bytes_removed` BIGINT,"
          + " `data_files_removed` BIGINT, `deletion_files_removed` BIGINT, `index_files_removed` BIGINT,"
          + " `transaction_files_removed` BIGINT, `manifest_files_removed` BIGINT,"
          + " `other_files_removed` BIGINT, `failed_deletes` BIGINT, `deferred_deletes` BIGINT,"
          + " `read_version` BIGINT, `duration_ms` BIGINT, `policy` STRING, `error` STRING, `files` STRING,"
          + " `file_parts` BIGINT, `resume` STRING>";

  private ResultRows() {}

  static Row counters(CleanupResult result) {
    return Row.of(result.row().values().toArray());
  }

  /** Named counters as a row of the matching ROW type above. */
  static Row named(Map<String, Long> namedCounters) {
    return Row.of(namedCounters.values().toArray());
  }

  /** A run of the maintenance history, in {@link #HISTORY_ROW}'s order. */
  static Row history(RunEntry run) {
    return Row.of(run.values().toArray());
  }

  static Row tag(Tag tag) {
    return Row.of(tag.name(), tag.branch().orElse(null), tag.version());
  }

  /**
   * {@code sys.describe_storage_all}'s rows: table, status, {@code StorageReport.totals()} (NULL
   * unless the table ran), error.
   */
  static final String FLEET_DESCRIBE_ROW =
      "ROW<`table` STRING, `status` STRING, `versions` BIGINT, latest_version BIGINT, `files` BIGINT, `bytes` BIGINT,"
          + " latest_bytes BIGINT, retained_bytes BIGINT, unverified_bytes BIGINT, reclaimable_versions BIGINT,"
          + " reclaimable_files BIGINT, reclaimable_bytes BIGINT, `error` STRING>";

  /** {@code sys.optimize_all}'s rows: table, status, {@link #OPTIMIZE_ROW}'s counters (NULL unless the table ran), error. */
  static final String FLEET_OPTIMIZE_ROW =
      "ROW<`table` STRING, `status` STRING, planned_tasks BIGINT, planned_fragments BIGINT, fragments_removed BIGINT,"
          + " fragments_added BIGINT, files_removed BIGINT, files_added BIGINT, commits BIGINT, read_version BIGINT,"
          + " new_version BIGINT, old_versions BIGINT, data_files_removed BIGINT, deletion_files_removed BIGINT,"
          + " index_files_removed BIGINT, transaction_files_removed BIGINT, manifest_files_removed BIGINT,"
          + " other_files_removed BIGINT, failed_deletes BIGINT, bytes_written BIGINT, bytes_reclaimed BIGINT,"
          + " net_bytes BIGINT, duration_ms BIGINT, `error` STRING>";

  /** A fleet's rows, one per table ({@link #fleet(TableOutcome, List)}). */
  static Row[] fleet(List<TableOutcome> outcomes, List<String> counters) {
    return outcomes.stream().map(outcome -> fleet(outcome, counters)).toArray(Row[]::new);
  }

  /** A fleet's row: the counters in {@code counters}' order, NULL for a table that did not run. */
  static Row fleet(TableOutcome outcome, List<String> counters) {
    Object[] values = new Object[counters.size() + 3];
    values[0] = outcome.table();
    values[1] = outcome.status().sqlName();
    for (int i = 0; i < counters.size(); i++) {
      values[i + 2] = outcome.counters().get(counters.get(i));
    }
    values[values.length - 1] = outcome.error();
    return Row.of(values);
  }

  static Row storage(StorageReport.Row row) {
    return Row.of(row.section(), row.name(), row.versions(), row.files(), row.bytes(), row.detail());
  }

  static Row file(CandidateFile file) {
    return Row.of(file.path(), file.kind().name().toLowerCase(Locale.ROOT), file.bytes(), file.reason().sqlName());
  }
}
