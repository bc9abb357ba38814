package dev.lancemaintenance.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The expiry records {@code expire_versions} left in a local table's main ledger directory
 * ({@code _maintenance/ledger/expired-*.rec}), in name order: what a test checks before and after
 * a sweep retires them.
 */
public final class ExpiryRecordFiles {
  private ExpiryRecordFiles() {}

  /** The records of the table at {@code root}; none when the ledger directory does not exist. */
  public static List<Path> of(Path root) {
    Path ledger = root.resolve("_maintenance/ledger");
    if (!Files.isDirectory(ledger)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(ledger)) {
      return files.filter(file -> file.getFileName().toString().startsWith("expired-")
              && file.getFileName().toString().endsWith(".rec"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
