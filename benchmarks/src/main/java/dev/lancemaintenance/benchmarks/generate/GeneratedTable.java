package dev.lancemaintenance.benchmarks.generate;

import java.nio.file.Path;
import java.time.Duration;

/** What the generator wrote: where, which shape, how much, and how long it took. */
public record GeneratedTable(Path root, TableShape shape, long latestVersion, long files, long bytes,
    long manifestBytes, Duration elapsed) {

  @Override
  public String toString() {
    return String.format("%s: %s, %,d versions, %,d files, %,d bytes (%,d of manifests), written in %.1f s",
        shape.name(), root, latestVersion, files, bytes, manifestBytes, elapsed.toMillis() / 1000.0);
  }
}
