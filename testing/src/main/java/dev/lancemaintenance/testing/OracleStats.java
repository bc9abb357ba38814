package dev.lancemaintenance.testing;

import org.lance.cleanup.RemovalStats;

/** The SDK's {@code RemovalStats}, all six counters, as a comparable value. */
public record OracleStats(
    long bytesRemoved,
    long oldVersions,
    long dataFilesRemoved,
    long transactionFilesRemoved,
    long indexFilesRemoved,
    long deletionFilesRemoved) {

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
