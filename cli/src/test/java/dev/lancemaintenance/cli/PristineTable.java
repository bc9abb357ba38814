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

  /** Three versions under {@code dir}: two appends of 10 rows, then a delete of half of them. */
  static PristineTable ofTwoAppendsAndADelete(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir);
    table.append(10);
    table.append(10);
    table.deleteWhere("id % 2 = 0");
    return new PristineTable(table);
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
