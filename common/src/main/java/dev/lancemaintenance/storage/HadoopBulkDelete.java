package dev.lancemaintenance.storage;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Hadoop's {@link BulkDelete} (Hadoop 3.4.1+): the only class of ours that names it, loaded only
 * after {@link HadoopDeletes#open} found the API on the class path and the capability on the store.
 */
final class HadoopBulkDelete implements HadoopDeletes {
  private final BulkDelete bulkDelete;

  private HadoopBulkDelete(BulkDelete bulkDelete) {
    this.bulkDelete = bulkDelete;
  }

  static HadoopDeletes open(FileSystem fs, Path root) throws IOException {
    return new HadoopBulkDelete(fs.createBulkDelete(root));
  }

  @Override
  public DeleteRoute route() {
    return DeleteRoute.BULK;
  }

  @Override
  public int pageSize() {
    return bulkDelete.pageSize();
  }

  /** Hadoop's contract: a missing file is not a failure, which is what cleanup wants. */
  @Override
  public List<Map.Entry<Path, String>> delete(List<Path> paths) throws IOException {
    return bulkDelete.bulkDelete(paths);
  }

  @Override
  public void close() throws IOException {
    bulkDelete.close();
  }
}
