package dev.lancemaintenance.format;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The deleted rows of one fragment. Lance stores no file name: it is derived from the fragment id
 * and these fields (see {@link #fileName(long)}).
 *
 * @param fileType how the rows are stored, which decides the extension
 * @param readVersion the version the deleting writer read
 * @param id a random unsigned 64-bit number that keeps concurrent writers' files apart
 * @param baseId the {@link BasePath} it lives under; empty for the manifest's own dataset directory
 * @param numDeletedRows rows it deletes (0 when the writer did not record it)
 */
public record DeletionFile(Type fileType, long readVersion, long id, OptionalInt baseId, long numDeletedRows) {
  public DeletionFile {
    Objects.requireNonNull(fileType, "fileType");
    Objects.requireNonNull(baseId, "baseId");
  }

  /** {@code {fragmentId}-{readVersion}-{id}.{arrow|bin}}, every number unsigned decimal. */
  public String fileName(long fragmentId) {
    return Long.toUnsignedString(fragmentId) + "-" + Long.toUnsignedString(readVersion) + "-"
        + Long.toUnsignedString(id) + "." + fileType.extension();
  }

  /** The two storage forms Lance knows; any other value makes a manifest unreadable. */
  public enum Type {
    /** Arrow IPC file of deleted row offsets. */
    ARROW("arrow"),
    /** Roaring bitmap of deleted row offsets (Lance switches to it for many deletions). */
    BITMAP("bin");

    private final String extension;

    Type(String extension) {
      this.extension = extension;
    }

    public String extension() {
      return extension;
    }
  }
}
