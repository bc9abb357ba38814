package dev.lancemaintenance.cli;

import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A table a test class writes once: read-only runs (dry runs, refused command lines) share it, and
 * a run that may delete gets a fresh copy of it.
 */
final class PristineTable {
  private final Path root;
  private final AtomicInteger copies = new AtomicInteger();

  PristineTable(LanceTableFixture table) {
    this.root = table.root();
  }

  Path root() {
    return root;
  }

  /** A new copy, file for file, beside the pristine table. */
  Path copy() {
    Path copy = root.resolveSibling(root.getFileName() + "-copy-" + copies.incrementAndGet());
    TableTwins.copy(root, copy);
    return copy;
  }

  /** Every file of {@code table}, relative to its root, sorted: what a refused run must leave. */
  static TreeSet<String> files(Path table) {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }
}
