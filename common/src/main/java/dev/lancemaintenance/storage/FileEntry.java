package dev.lancemaintenance.storage;

import java.io.Serializable;
import java.util.Objects;

/**
 * One file found by a listing.
 *
 * @param path table-relative path ({@code data/abc.lance}), always normalised by {@link TablePaths}
 * @param size length in bytes (of the link itself for a {@link EntryType#LINK})
 * @param modificationTimeMillis the store's modification time; cleanup compares it with manifest
 *     timestamps, as Lance does
 * @param type a plain file, or a symbolic link that the listing did not follow
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
    LINK
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
}
