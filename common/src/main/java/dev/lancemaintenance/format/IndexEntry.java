package dev.lancemaintenance.format;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * One index (or index segment) of a version. Every file of it lives in {@code _indices/{uuid}/}.
 *
 * @param uuid lowercase hyphenated, as Lance names the directory
 * @param name the user-visible name; several segments can share it
 * @param datasetVersion the version the index was built from
 * @param baseId the {@link BasePath} its directory lives under; empty for the manifest's own
 *     dataset directory
 */
public record IndexEntry(String uuid, String name, long datasetVersion, OptionalInt baseId) {
  public IndexEntry {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(baseId, "baseId");
  }
}
