package dev.lancemaintenance.storage;

import java.io.Serializable;
import java.util.Objects;

/**
 * One file found by a listing.
 *
 * @param path table-relative path ({@code data/abc.lance}), always normalised by {@link TablePaths}
 * @param size length in bytes (of the link itself for a {@link EntryType#LINK}); 0 when {@link
 *     EntryType#UNREAD}
 * @param modificationTimeMillis the store's modification time; cleanup compares it with manifest
 *     timestamps, as Lance does; 0 when {@link EntryType#UNREAD}
 * @param type a plain file, a symbolic link that the listing did not follow, or a name whose
 *     attributes the listing left unread
 */
public record FileEntry(String path, long size, long modificationTimeMillis, EntryType type) implements Serializable {
  /** What a listed name is on the store. */
  public enum EntryType {
    /** A file, stored under the table's own directories. */
    FILE,
    /**
     * A symbolic link (to a file or a directory, perhaps outside the table). Listings never follow
     * one, and cleanup treats it as at most an unverified file: deleting it removes the link only.
     */
    LINK,
    /**
     * A name a listing gave without reading its attributes ({@link
     * TableStorage#listFilesDeferringAttributes}): not a directory, but a file or a link, of unknown
     * size and time until {@link TableStorage#withAttributes} reads them.
     */
    UNREAD
  }

  public FileEntry {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(type, "type");
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0 for " + path + ": " + size);
    }
  }

  /** A plain file. */
  public FileEntry(String path, long size, long modificationTimeMillis) {
    this(path, size, modificationTimeMillis, EntryType.FILE);
  }

  /** A listed name whose size, time and type are still to be read ({@link EntryType#UNREAD}). */
  public static FileEntry unread(String path) {
    return new FileEntry(path, 0, 0, EntryType.UNREAD);
  }

  /** Whether the size, time and type are the store's, not yet to be read. */
  public boolean attributesRead() {
    return type != EntryType.UNREAD;
  }
}
