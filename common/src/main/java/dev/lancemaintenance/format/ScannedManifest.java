package dev.lancemaintenance.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the cleanup's mark stage needs of one manifest: its version, its timestamp and the files it
 * references. Produced by {@link ManifestReader#scan}, which decodes nothing else.
 *
 * @param path table-relative path of the manifest
 * @param version the version recorded inside the manifest
 * @param timestampNanos the commit time (0 when the manifest has none, as Lance reads it)
 * @param groups the referenced files, one group per fragment and a last one for the manifest's own
 *     entries; a fragment repeated by an earlier manifest of the same scanner is the same object
 * @param sharedWithPrevious how many leading groups are the very groups, in the same places, of the
 *     manifest the same scanner scanned just before (0 for its first)
 */
public record ScannedManifest(
    String path, long version, long timestampNanos, List<ReferenceGroup> groups, int sharedWithPrevious) {
  public ScannedManifest {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(groups, "groups");
    if (sharedWithPrevious < 0 || sharedWithPrevious > groups.size()) {
      throw new IllegalArgumentException("shared groups " + sharedWithPrevious + " of " + groups.size());
    }
  }

  /** Every file the version references, in manifest order. */
  public List<FileReference> references() {
    List<FileReference> all = new ArrayList<>();
    groups.forEach(group -> all.addAll(group.references()));
    return all;
  }
}
