package dev.lancemaintenance.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Byte-identical copies of a table directory for running the SDK's cleanup and ours on the same
 * starting point. Every file keeps its mtime: Lance's cleanup compares mtimes with manifest
 * timestamps.
 *
 * <p>A copy is only a faithful twin for tables without branches: branch manifests name the main
 * table by absolute path. For those, {@link #swap} puts each twin in turn at the original path.
 */
public final class TableTwins {
  private TableTwins() {}

  /**
   * The files the official SDK's cleanup with {@code policy} leaves on a copy of {@code pristine}
   * made at {@code twin}: what a "same files as the SDK" assertion compares with.
   */
  public static List<String> filesTheSdkLeaves(Path pristine, Path twin, OraclePolicy policy) {
    copy(pristine, twin);
    OracleOutcome outcome = LanceOracle.cleanup(twin, policy);
    if (!(outcome instanceof OracleOutcome.Removed)) {
      throw new IllegalStateException("the SDK's cleanup of the twin " + twin + " did not run: " + outcome);
    }
    return FileTimes.listFiles(twin);
  }

  /** Copies {@code source} to the new directory {@code target}, keeping mtimes. */
  public static void copy(Path source, Path target) {
    if (Files.exists(target)) {
      throw new IllegalArgumentException("twin target exists: " + target);
    }
    List<Path> entries;
    try (Stream<Path> walk = Files.walk(source)) {
      entries = walk.toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + source, e);
    }
    for (Path entry : entries) {
      copyEntry(entry, target.resolve(FileTimes.relative(source, entry)));
    }
  }

  /**
   * Puts {@code pristine}'s copy back at {@code table}'s own path (branches name their parent by
   * path, so a restored table is a twin only there): removes whatever is at {@code table}, then
   * copies.
   */
  public static void restore(Path pristine, Path table) {
    deleteRecursively(table);
    copy(pristine, table);
  }

  /** Removes a directory tree; nothing there is fine. */
  public static void deleteRecursively(Path root) {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }

  /**
   * Exchanges the contents of two directories by renaming (mtimes of files are untouched), so the
   * twin that was at {@code b} now sits at {@code a}'s path and the other way round.
   */
  public static void swap(Path a, Path b) {
    Path parking = a.resolveSibling(a.getFileName() + ".swap");
    try {
      Files.move(a, parking, StandardCopyOption.ATOMIC_MOVE);
      Files.move(b, a, StandardCopyOption.ATOMIC_MOVE);
      Files.move(parking, b, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot swap " + a + " and " + b, e);
    }
  }

  private static void copyEntry(Path entry, Path target) {
    try {
      if (Files.isDirectory(entry)) {
        Files.createDirectories(target);
      } else {
        Files.copy(entry, target, StandardCopyOption.COPY_ATTRIBUTES);
        // COPY_ATTRIBUTES keeps the mtime on Linux; set it again so no platform can differ.
        Files.setLastModifiedTime(target, Files.getLastModifiedTime(entry));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + entry + " to " + target, e);
    }
  }
}
