package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;

/**
 * Stage 3 on an executor: lists one managed directory lazily, so a directory of millions of files
 * streams into the shuffle instead of filling the task's memory. The storage closes when the
 * listing ends.
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
    TableStorage storage = storageFactory.value().open(table);
    try {
      return new ClosingIterator(storage, storage.listFiles(task.dir(), task.recursive()));
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** Closes the storage once the listing is exhausted. */
  private static final class ClosingIterator implements Iterator<FileEntry> {
    private final TableStorage storage;
    private final Iterator<FileEntry> files;
    private boolean closed;

    ClosingIterator(TableStorage storage, Iterator<FileEntry> files) {
      this.storage = storage;
      this.files = files;
    }

    @Override
    public boolean hasNext() {
      if (closed) {
        return false;
      }
      if (files.hasNext()) {
        return true;
      }
      closed = true;
      storage.close();
      return false;
    }

    @Override
    public FileEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return files.next();
    }
  }
}
