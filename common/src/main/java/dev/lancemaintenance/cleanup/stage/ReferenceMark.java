package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.format.FileKind;
import java.io.Serializable;
import java.util.Objects;

/**
 * One reference found by the mark stage, keyed by {@link ReferenceKeys reference key}: the
 * table-relative path of a file, or of an index directory.
 */
public record ReferenceMark(String key, FileKind kind, MarkState state) implements Serializable {
  public ReferenceMark {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(state, "state");
  }

  /** The mark after also seeing {@code other} for the same key: kept wins. */
  public ReferenceMark merge(ReferenceMark other) {
    MarkState merged = state.merge(other.state);
    return merged == state ? this : new ReferenceMark(key, kind, merged);
  }
}
