package dev.lancemaintenance.examples;

import dev.lancemaintenance.storage.TableLease;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.lance.Dataset;

/** A demo table for one example test, and what the official Lance reader sees in it. */
final class DemoTables {
  static final int APPENDS = 3;
  static final int ROWS_PER_APPEND = 40;
  /** Three appends, a delete, an overwrite. */
  static final long VERSIONS = APPENDS + 2;
  /** The overwrite writes four appends' worth of rows. */
  static final long ROWS = 4L * ROWS_PER_APPEND;

  private DemoTables() {}

  static String write(Path dir) {
    Path root = dir.resolve("demo.lance");
    DemoTable.write(root, APPENDS, ROWS_PER_APPEND);
    return root.toString();
  }

  static List<Long> versions(String uri) {
    try (Dataset dataset = Dataset.open(uri)) {
      return dataset.listVersions().stream().map(v -> v.getId()).toList();
    }
  }

  static long rows(String uri) {
    try (Dataset dataset = Dataset.open(uri)) {
      return dataset.countRows();
    }
  }

  /** The table's files, not its maintenance lease ({@code _maintenance/}, which a real run leaves). */
  static long files(String uri) {
    Path root = Path.of(uri);
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile)
          .filter(file -> !TableLease.isLeaseFile(root.relativize(file).toString().replace('\\', '/')))
          .count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
