package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.format.FileKind;
import java.io.Serializable;
import java.util.Objects;

/**
 * A file the decision selected for removal: what a dry run shows and what the sweep deletes.
 *
 * @param path table-relative path
 * @param kind what the file is, for the counters
 * @param bytes its size as listed
 * @param reason why it goes
 */
public record CandidateFile(String path, FileKind kind, long bytes, RemovalReason reason)
    implements Serializable {
  public CandidateFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0 for " + path + ": " + bytes);
    }
  }
}
