package dev.lancemaintenance.format;

import java.util.Objects;

/**
 * The library that wrote a manifest, e.g. {@code lance} {@code 7.0.0}.
 *
 * @param version the full version, prerelease and build metadata included when recorded
 */
public record WriterVersion(String library, String version) {
  public WriterVersion {
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(version, "version");
  }
}
