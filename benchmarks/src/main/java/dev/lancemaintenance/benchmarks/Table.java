package dev.lancemaintenance.benchmarks;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A table copy a contender cleans: its local directory (empty on an object store), the URI the SDK
 * opens with its storage options, and the URI our engines open with their Hadoop settings.
 */
record Table(Optional<Path> localRoot, String lanceUri, Map<String, String> lanceOptions,
    String hadoopUri, Map<String, String> hadoopOptions) {

  static Table local(Path root) {
    String path = root.toAbsolutePath().normalize().toString();
    return new Table(Optional.of(root), path, Map.of(), path, Map.of());
  }
}
