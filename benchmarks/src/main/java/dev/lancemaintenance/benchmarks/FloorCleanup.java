package dev.lancemaintenance.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The floor no cleanup can beat on a local disk: read every manifest's bytes once, then delete the
 * files the SDK deleted (known from a reference run) with plain {@link Files#delete}, one thread.
 */
final class FloorCleanup implements Contender {
  private final List<String> doomed;

  FloorCleanup(List<String> doomed) {
    this.doomed = List.copyOf(doomed);
  }

  @Override
  public String name() {
    return "floor";
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    Path root = table.localRoot().orElseThrow(() -> new IllegalStateException("the floor runs on local tables"));
    long bytes = 0;
    try (Stream<Path> manifests = Files.list(root.resolve("_versions"))) {
      for (Path manifest : (Iterable<Path>) manifests::iterator) {
        bytes += Files.readAllBytes(manifest).length;
      }
      for (String path : doomed) {
        Files.delete(root.resolve(path));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("floor run on " + root, e);
    }
    return bytes;
  }
}
