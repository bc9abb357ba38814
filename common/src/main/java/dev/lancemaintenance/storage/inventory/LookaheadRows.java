package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.FileEntry;
import java.util.NoSuchElementException;

/**
 * What both report formats share: rows are read one at a time until one is a file of the table,
 * which {@link #hasNext} holds until {@link #next} hands it on.
 */
abstract class LookaheadRows implements InventoryRows {
  private FileEntry next;

  /** Reads rows until one is a file of the table; null at the end of the data file. */
  protected abstract FileEntry readNextFile();

  @Override
  public final boolean hasNext() {
    if (next == null) {
      next = readNextFile();
    }
    return next != null;
  }

  @Override
  public final FileEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    FileEntry entry = next;
    next = null;
    return entry;
  }
}
