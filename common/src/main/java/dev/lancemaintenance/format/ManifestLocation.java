package dev.lancemaintenance.format;

import java.io.Serializable;
import java.util.Objects;

/**
 * One manifest file found in a {@code _versions/} directory, before its body is read.
 *
 * @param path table-relative ({@code _versions/18446744073709551614.manifest},
 *     {@code tree/b1/_versions/...})
 * @param version the version its name encodes (unsigned)
 * @param size length in bytes, used to find the footer without another request
 * @param modificationTimeMillis the store's modification time
 * @param naming the scheme its name follows
 */
public record ManifestLocation(
    String path, long version, long size, long modificationTimeMillis, ManifestNaming naming)
    implements Serializable {
  public ManifestLocation {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(naming, "naming");
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0 for " + path + ": " + size);
    }
  }
}
