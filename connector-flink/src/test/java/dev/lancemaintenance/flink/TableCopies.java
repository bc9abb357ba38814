package dev.lancemaintenance.flink;

import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.stream.Stream;

/** A table as built, kept aside so that several runs can start from the same files. */
public record TableCopies(Path table, Path pristine) {

  public static TableCopies keep(Path table, Path aside) {
    TableTwins.copy(table, aside);
    return new TableCopies(table, aside);
  }

  public void restore() {
    deleteRecursively(table);
    TableTwins.copy(pristine, table);
  }

  public TreeSet<String> files() {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }

  public TreeSet<String> pristineFiles() {
    return new TreeSet<>(LanceTableFixture.open(pristine).listFiles());
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
