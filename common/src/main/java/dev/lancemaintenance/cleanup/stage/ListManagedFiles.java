package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Stage {@code list} ({@link dev.lancemaintenance.cleanup.engine.CleanupStage#LIST}): the files of
 * one managed directory of a {@link ListingTask}, as a lazy iterator, so a directory of millions of
 * files streams to the decision instead of filling a task's memory. Every engine lists through
 * here; it decides only where the files go (a local spill, a shuffle, a keyed stream).
 */
public final class ListManagedFiles {
  private ListManagedFiles() {}

  /** The files under the task's directory, through {@code storage}, which the caller closes. */
  public static Iterator<FileEntry> files(TableStorage storage, ListingTask task) {
    return storage.listFiles(task.dir(), task.recursive());
  }

  /**
   * The files under the task's directory through a storage of its own, opened here and closed
   * once the listing is exhausted (or fails to start): for a task that returns the iterator to its
   * framework instead of walking it.
   */
  public static Iterator<FileEntry> closingFiles(TableStorageFactory factory, TableLocation table, ListingTask task) {
    TableStorage storage = factory.open(table);
    try {
      return new ClosingIterator(storage, files(storage, task));
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
