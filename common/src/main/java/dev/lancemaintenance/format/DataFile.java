package dev.lancemaintenance.format;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * One data file of a fragment.
 *
 * @param path relative to the {@code data/} directory of its base; may contain {@code /}
 * @param baseId the {@link BasePath} it lives under; empty for the manifest's own dataset directory
 * @param sizeBytes as recorded by the writer; 0 when unknown
 */
public record DataFile(String path, OptionalInt baseId, long sizeBytes) {
  public DataFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(baseId, "baseId");
  }
}
