package dev.lancemaintenance.format;

import java.util.List;

/**
 * The files one fragment of a manifest names (or the manifest's own entries: its indices and
 * transaction file).
 *
 * <p>Identity matters: a {@link ReferenceScanner} hands out the same group object for a fragment
 * that consecutive manifests repeat byte for byte, so a caller that has already handled a group
 * may skip it when it meets the same object again. Hence no value equality.
 */
public final class ReferenceGroup {
  private final List<FileReference> references;

  ReferenceGroup(List<FileReference> references) {
    this.references = List.copyOf(references);
  }

  /** The files of this group, in manifest order. */
  public List<FileReference> references() {
    return references;
  }
}
