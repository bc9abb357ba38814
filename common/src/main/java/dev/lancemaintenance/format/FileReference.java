package dev.lancemaintenance.format;

import java.io.Serializable;
import java.util.Objects;

/**
 * A file (or, for {@link FileKind#INDEX}, a directory and everything below it) that a version needs.
 *
 * @param kind its role
 * @param path relative to the table root when {@code external} is false; otherwise the redacted
 *     URI of a location outside the table, which maintenance must never touch
 * @param external whether it lies outside the table root (a shallow clone's source, an import)
 * @param certain false when it was named through a base path that only counts as this table
 *     because it cannot be resolved ({@link dev.lancemaintenance.storage.TableLocation#locate}): kept
 *     if the table has it, and no sign of damage if the table does not
 */
public record FileReference(FileKind kind, String path, boolean external, boolean certain) implements Serializable {
  public FileReference {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
  }

  /** A reference whose place is certain. */
  public FileReference(FileKind kind, String path, boolean external) {
    this(kind, path, external, true);
  }
}
