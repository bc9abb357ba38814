package dev.lancemaintenance.report;

import java.io.Serializable;

/** A count of files and their bytes; a monoid. */
public record FilesBytes(long files, long bytes) implements Serializable {
  public static final FilesBytes ZERO = new FilesBytes(0, 0);

  public FilesBytes plus(FilesBytes other) {
    return new FilesBytes(files + other.files, bytes + other.bytes);
  }

  /** One more file of {@code size} bytes. */
  public FilesBytes plusFile(long size) {
    return new FilesBytes(files + 1, bytes + size);
  }
}
