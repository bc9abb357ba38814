package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.storage.inventory.InventoryRows;
import dev.lancemaintenance.storage.inventory.S3Inventory;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;

/**
 * Stage {@code list} ({@link dev.lancemaintenance.cleanup.engine.CleanupStage#LIST}): the files of
 * one managed directory of a {@link ListingTask}, as a lazy iterator, so a directory of millions of
 * files streams to the decision instead of filling a task's memory. Every engine lists through
 * here; it decides only where the files go (a local spill, a shuffle, a keyed stream).
 *
 * <p>A task of a run that lists from an S3 Inventory report reads one data file of the report
 * instead, and passes on only the rows under the managed directories of the dataset, as a walk of
 * those directories would have shown them (a main-line run never sees {@code tree/}). Nothing else
 * is ever listed, so a file the report does not show is never a candidate. A task of a run that
 * resumes a dead run's sweep reads one part of what that run decided ({@link
 * dev.lancemaintenance.cleanup.plan.RecordedListing}): the files it listed and decided, as listed.
 * A task of a directory the plan walked already ({@code _versions/}) passes on that walk's files.
 */
public final class ListManagedFiles {
  private ListManagedFiles() {}

  /** The files under the task's directory, through {@code storage}, which the caller closes. */
  public static Iterator<FileEntry> files(TableStorage storage, ListingTask task) {
    if (task.listed() != null) {
      return task.listed().iterator();
    }
    if (task.recorded() != null) {
      return task.recorded().files(storage);
    }
    if (task.inventoryPart() == null) {
      return storage.listFiles(task.dir(), task.recursive());
    }
    return inventoryRows(storage, task.inventoryPart(), task.inventoryDataset());
  }

  /**
   * As {@link #files}, for an engine whose decision reads attributes where it needs them ({@link
   * DecideByPath#decide(FileEntry, java.util.Optional, java.util.function.Function)}): a walk may
   * give names whose attributes it left unread ({@link TableStorage#listFilesDeferringAttributes}).
   */
  public static Iterator<FileEntry> filesDeferringAttributes(TableStorage storage, ListingTask task) {
    if (walksTheStore(task)) {
      return storage.listFilesDeferringAttributes(task.dir(), task.recursive());
    }
    return files(storage, task);
  }

  /**
   * Whether the task walks its directory on the store, rather than reading a walk the plan made
   * already, a recorded part or an inventory's rows.
   */
  public static boolean walksTheStore(ListingTask task) {
    return task.inventoryPart() == null && task.recorded() == null && task.listed() == null;
  }

  /** The rows of one data file of a report under the managed directories of {@code dataset}. */
  private static Iterator<FileEntry> inventoryRows(TableStorage storage, S3Inventory.Part part, DatasetRef dataset) {
    TableStorage reports = storage.openOther(part.reportBucket());
    InventoryRows rows;
    try {
      rows = part.rows(reports, storage.location());
    } catch (RuntimeException e) {
      reports.close();
      throw e;
    }
    Iterator<FileEntry> managed =
        entries(rows, file -> Optional.of(file).filter(f -> ReferenceKeys.isInDataset(dataset, f.path())));
    return new ClosingIterator(() -> {
      try (reports) {
        rows.close();
      }
    }, managed);
  }

  /**
   * The files under the task's directory through a storage of its own, opened here and closed
   * once the listing is exhausted (or fails to start): for a task that returns the iterator to its
   * framework instead of walking it.
   */
  public static Iterator<FileEntry> closingFiles(TableStorageFactory factory, TableLocation table, ListingTask task) {
    TableStorage storage = factory.open(table);
    try {
      return new ClosingIterator(storage::close, files(storage, task));
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /**
   * The rows of an inventory as the files they stand for, lazily: {@code entryOf} gives a row's
   * file, or empty for a row the listing skips (another table's, outside the managed directories).
   */
  public static <T> Iterator<FileEntry> entries(Iterator<T> rows, Function<T, Optional<FileEntry>> entryOf) {
    return new Iterator<>() {
      private FileEntry next;

      @Override
      public boolean hasNext() {
        while (next == null && rows.hasNext()) {
          next = entryOf.apply(rows.next()).orElse(null);
        }
        return next != null;
      }

      @Override
      public FileEntry next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        FileEntry file = next;
        next = null;
        return file;
      }
    };
  }

  /** Closes what the listing read through once it is exhausted. */
  private static final class ClosingIterator implements Iterator<FileEntry> {
    private final Runnable close;
    private final Iterator<FileEntry> files;
    private boolean closed;

    ClosingIterator(Runnable close, Iterator<FileEntry> files) {
      this.close = close;
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
      close.run();
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
