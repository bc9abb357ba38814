package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.stage.ListManagedFiles;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Iterator;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;

/**
 * Stage {@code list} on an executor: one managed directory per record, listed lazily through
 * {@link ListManagedFiles}, so a directory of millions of files streams into the shuffle instead of
 * filling the task's memory. The storage closes when the listing ends.
 */
final class ListFiles implements FlatMapFunction<ListingTask, FileEntry> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<TableStorageFactory> storageFactory;
  private final TableLocation table;

  ListFiles(Broadcast<TableStorageFactory> storageFactory, TableLocation table) {
    this.storageFactory = storageFactory;
    this.table = table;
  }

  @Override
  public Iterator<FileEntry> call(ListingTask task) {
    return ListManagedFiles.closingFiles(storageFactory.value(), table, task);
  }
}
