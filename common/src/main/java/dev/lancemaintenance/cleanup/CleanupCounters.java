package dev.lancemaintenance.cleanup;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The counters of a cleanup, a monoid: tasks count locally from {@link #ZERO} with {@link
 * #record(CandidateFile)} and engines reduce with {@link #plus}. Names are Lance's {@code
 * RemovalStats} where Lance has them. A file counts as removed only once its delete succeeded (or,
 * in a dry run, once it was selected); a failed delete counts in {@code failedDeletes} only.
 *
 * @param oldVersions versions removed (one per expired manifest)
 * @param bytesRemoved bytes of every removed file, manifests included
 * @param dataFilesRemoved data files, with their blob sidecars (Lance counts sidecars as data)
 * @param deletionFilesRemoved deletion vectors under {@code _deletions/}
 * @param indexFilesRemoved files under {@code _indices/}
 * @param transactionFilesRemoved files under {@code _transactions/}
 * @param manifestFilesRemoved manifests under {@code _versions/}
 * @param otherFilesRemoved anything else removed, such as abandoned {@code _versions/.tmp*} files
 * @param failedDeletes deletes that failed; their files stay, and so do the run's expired manifests
 * @param deferredDeletes files the run decided to remove but left for the next run because {@code
 *     max_deletes} was reached; when any are, the run's expired manifests stay too (a capped run)
 */
public record CleanupCounters(
    long oldVersions,
    long bytesRemoved,
    long dataFilesRemoved,
    long deletionFilesRemoved,
    long indexFilesRemoved,
    long transactionFilesRemoved,
    long manifestFilesRemoved,
    long otherFilesRemoved,
    long failedDeletes,
    long deferredDeletes)
    implements Serializable {

  public static final CleanupCounters ZERO = new CleanupCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** The counters after one more removed file. */
  public CleanupCounters record(CandidateFile file) {
    long data = 0;
    long deletion = 0;
    long index = 0;
    long transaction = 0;
    long manifest = 0;
    long other = 0;
    switch (file.kind()) {
      case DATA, BLOB -> data = 1;
      case DELETION -> deletion = 1;
      case INDEX -> index = 1;
      case TRANSACTION -> transaction = 1;
      case MANIFEST -> manifest = 1;
      case ROW_ID, OTHER -> other = 1;
    }
    return plus(new CleanupCounters(manifest, file.bytes(), data, deletion, index, transaction, manifest, other, 0, 0));
  }

  /** Files removed of every kind, manifests included. */
  public long filesRemoved() {
    return dataFilesRemoved + deletionFilesRemoved + indexFilesRemoved + transactionFilesRemoved
        + manifestFilesRemoved + otherFilesRemoved;
  }

  /** The counters after {@code count} more failed deletes. */
  public CleanupCounters failed(long count) {
    return plus(new CleanupCounters(0, 0, 0, 0, 0, 0, 0, 0, count, 0));
  }

  /** The counters after {@code count} more files left for the next run by {@code max_deletes}. */
  public CleanupCounters deferred(long count) {
    return plus(new CleanupCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, count));
  }

  /** Deletes sent, whether they succeeded or failed: what {@code max_deletes} counts. */
  public long deletesAttempted() {
    return dataFilesRemoved + deletionFilesRemoved + indexFilesRemoved + transactionFilesRemoved
        + manifestFilesRemoved + otherFilesRemoved + failedDeletes;
  }

  public CleanupCounters plus(CleanupCounters other) {
    return new CleanupCounters(
        oldVersions + other.oldVersions,
        bytesRemoved + other.bytesRemoved,
        dataFilesRemoved + other.dataFilesRemoved,
        deletionFilesRemoved + other.deletionFilesRemoved,
        indexFilesRemoved + other.indexFilesRemoved,
        transactionFilesRemoved + other.transactionFilesRemoved,
        manifestFilesRemoved + other.manifestFilesRemoved,
        otherFilesRemoved + other.otherFilesRemoved,
        failedDeletes + other.failedDeletes,
        deferredDeletes + other.deferredDeletes);
  }

  /**
   * The counters under their result names (snake_case, Lance's names where Lance has them), in the
   * order every engine reports them; {@link CleanupResult#namedCounters()} adds the run's facts.
   */
  public Map<String, Long> named() {
    Map<String, Long> named = new LinkedHashMap<>();
    named.put("old_versions", oldVersions);
    named.put("bytes_removed", bytesRemoved);
    named.put("data_files_removed", dataFilesRemoved);
    named.put("deletion_files_removed", deletionFilesRemoved);
    named.put("index_files_removed", indexFilesRemoved);
    named.put("transaction_files_removed", transactionFilesRemoved);
    named.put("manifest_files_removed", manifestFilesRemoved);
    named.put("other_files_removed", otherFilesRemoved);
    named.put("failed_deletes", failedDeletes);
    named.put("deferred_deletes", deferredDeletes);
    return named;
  }

  /** The result names, so that stage logs read like the result an operator will see. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    named().forEach((name, value) -> text.append(text.length() == 0 ? "" : ", ").append(name).append('=').append(value));
    return text.toString();
  }
}
