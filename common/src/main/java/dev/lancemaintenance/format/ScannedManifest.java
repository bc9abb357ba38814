package dev.lancemaintenance.format;

import java.util.List;
import java.util.Objects;

/**
 * What the cleanup's mark stage needs of one manifest: its version, its timestamp and the files it
 * references. Produced by {@link ManifestReader#scan}, which decodes nothing else.
 *
 * @param path table-relative path of the manifest
 * @param version the version recorded inside the manifest
 * @param timestampNanos the commit time (0 when the manifest has none, as Lance reads it)
 * @param references every file the version references, in manifest order
 */
public record ScannedManifest(String path, long version, long timestampNanos, List<FileReference> references) {
  public ScannedManifest {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(references, "references");
  }
}
