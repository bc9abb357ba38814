package dev.lancemaintenance.storage;

import java.io.Serializable;
import java.util.Objects;

/**
 * One file found by a listing.
 *
 * @param path table-relative path ({@code data/abc.lance}), always normalised by {@link TablePaths}
 * @param size length in bytes
 * @param modificationTimeMillis the store's modification time; cleanup compares it with manifest
 *     timestamps, as Lance does
 */
public record FileEntry(String path, long size, long modificationTimeMillis) implements Serializable {
  public FileEntry {
    Objects.requireNonNull(path, "path");
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0 for " + path + ": " + size);
    }
  }
}
