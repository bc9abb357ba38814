package dev.lancemaintenance.testing;

import java.util.function.ToLongFunction;
import org.lance.cleanup.RemovalStats;

/** The SDK's {@code RemovalStats}, all six counters, as a comparable value. */
public record OracleStats(
    long bytesRemoved,
    long oldVersions,
    long dataFilesRemoved,
    long transactionFilesRemoved,
    long indexFilesRemoved,
    long deletionFilesRemoved) {

  /**
   * The six counters looked up by their names in our results ({@code bytes_removed}, {@code
   * old_versions}, ...: the columns of {@code CALL lance.cleanup}, the keys of the CLI's JSON).
   */
  public static OracleStats named(ToLongFunction<String> counter) {
    return new OracleStats(
        counter.applyAsLong("bytes_removed"),
        counter.applyAsLong("old_versions"),
        counter.applyAsLong("data_files_removed"),
        counter.applyAsLong("transaction_files_removed"),
        counter.applyAsLong("index_files_removed"),
        counter.applyAsLong("deletion_files_removed"));
  }

  static OracleStats of(RemovalStats stats) {
    return new OracleStats(
        stats.getBytesRemoved(),
        stats.getOldVersions(),
        stats.getDataFilesRemoved(),
        stats.getTransactionFilesRemoved(),
        stats.getIndexFilesRemoved(),
        stats.getDeletionFilesRemoved());
  }
}
