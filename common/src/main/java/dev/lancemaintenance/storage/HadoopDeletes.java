package dev.lancemaintenance.storage;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Deletes a page of files on a Hadoop file system, by bulk requests or by single deletes in
 * parallel; {@link #open} is the one place that chooses which.
 *
 * <p>Hadoop's {@code BulkDelete} exists from Hadoop 3.4.1; Spark 3.5 ships 3.3.4. The choice is
 * made once per storage, before any delete, by the client's own answers (is the class there, does
 * the store report {@value #BULK_DELETE_CAPABILITY}), so that a 3.3 client never loads a class that
 * names a 3.4 API: only {@link HadoopBulkDelete} does, and it is loaded only when both say yes.
 */
interface HadoopDeletes extends AutoCloseable {
  /** {@code CommonPathCapabilities.BULK_DELETE} (3.4.1+), spelt out so that 3.3 clients load this class. */
  String BULK_DELETE_CAPABILITY = "fs.capability.bulk.delete";

  /** Whether the Hadoop client on the class path has the {@code BulkDelete} API (once per JVM). */
  boolean CLIENT_HAS_BULK_DELETE = ClientApi.has("org.apache.hadoop.fs.BulkDelete");

  DeleteRoute route();

  /** The most files {@link #delete} takes at once. */
  int pageSize();

  /**
   * Deletes {@code paths}; a file that is already gone counts as deleted.
   *
   * @return the paths that were not deleted, each with why (paths as the file system names them)
   * @throws IOException when the whole page failed (a bulk request the store refused)
   */
  List<Map.Entry<Path, String>> delete(List<Path> paths) throws IOException;

  @Override
  void close() throws IOException;

  /**
   * The bulk delete where the client has it and the store pages more than one file a request;
   * parallel single deletes otherwise ({@code concurrency} in flight, {@code singlePageSize} a page).
   */
  static HadoopDeletes open(FileSystem fs, Path root, int concurrency, int singlePageSize) throws IOException {
    if (CLIENT_HAS_BULK_DELETE && fs.hasPathCapability(root, BULK_DELETE_CAPABILITY)) {
      HadoopDeletes bulk = HadoopBulkDelete.open(fs, root);
      // Hadoop's default bulk delete (HDFS, ABFS, GCS) is one file a page, deleted in the calling
      // thread, and it ignores the false a file system's delete returns for a file it kept (issue
      // 12, item 10): single deletes in parallel, each checked, are faster and stricter.
      if (bulk.pageSize() > 1) {
        return bulk;
      }
      bulk.close();
    }
    return new ParallelSingleDeletes(fs, concurrency, singlePageSize);
  }

  /** Asks the class loader that loaded Hadoop, never initialising the class it looks for. */
  final class ClientApi {
    private ClientApi() {}

    static boolean has(String className) {
      try {
        Class.forName(className, false, FileSystem.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException | LinkageError absent) {
        return false;
      }
    }
  }
}
