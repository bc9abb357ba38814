package dev.lancemaintenance.storage;

/**
 * How a table storage deletes files: {@link LocalTableStorage} always locally; a {@link
 * HadoopTableStorage} chooses once per storage from what the table's store and the Hadoop client on
 * the class path offer (see {@link HadoopDeletes#open}).
 */
public enum DeleteRoute {
  /** Local disk: one {@code java.nio} delete per file, in the caller's thread. */
  LOCAL,
  /**
   * Hadoop's {@code BulkDelete} (Hadoop 3.4.1+) where the store deletes a page of files in one
   * request (s3a: one DeleteObjects request per page).
   */
  BULK,
  /**
   * One delete request per file, a page of them in flight at once: Hadoop 3.3 clients (no {@code
   * BulkDelete}) and stores whose bulk delete is one file a page (HDFS, ABFS, GCS, s3a with {@code
   * fs.s3a.multiobjectdelete.enable=false}).
   */
  PARALLEL_SINGLE
}
