package dev.lancemaintenance.testing;

import dev.lancemaintenance.storage.TableLease;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Lists and ages files of a table directory. Lance's cleanup compares file modification times
 * with manifest timestamps, so tests move mtimes instead of waiting.
 */
public final class FileTimes {
  private FileTimes() {}

  /**
   * Sorted root-relative paths of every regular file under {@code root}, with {@code /}; not the
   * table's maintenance lease ({@code _maintenance/}, which every real run leaves released and
   * Lance never sees), so a cleaned table compares with the SDK's twin file for file.
   */
  public static List<String> listFiles(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).map(p -> relative(root, p))
          .filter(path -> !TableLease.isLeaseFile(path)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
  }

  public static Instant modificationTime(Path file) {
    try {
      return Files.getLastModifiedTime(file).toInstant();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read mtime of " + file, e);
    }
  }

  public static void setModificationTime(Path file, Instant mtime) {
    try {
      Files.setLastModifiedTime(file, FileTime.from(mtime));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set mtime of " + file, e);
    }
  }

  /** Moves the mtime of every regular file under {@code root} by {@code shift}. */
  public static void shiftAll(Path root, Duration shift) {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile).forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    for (Path file : files) {
      setModificationTime(file, modificationTime(file).plus(shift));
    }
  }

  static String relative(Path root, Path file) {
    return root.relativize(file).toString().replace(File.separatorChar, '/');
  }
}
