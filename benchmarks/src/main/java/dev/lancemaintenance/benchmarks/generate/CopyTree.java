package dev.lancemaintenance.benchmarks.generate;

import dev.lancemaintenance.storage.TableLease;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Fresh copies of a table for each benchmark run, through {@code cp -a}: it keeps mtimes (which
 * decide what cleanup may delete) and hard links, and copies a million files faster than a Java walk.
 */
public final class CopyTree {
  private CopyTree() {}

  public static void copy(Path source, Path target) {
    try {
      Files.createDirectories(target.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the parent of " + target, e);
    }
    run("cp", "-a", source.toString(), target.toString());
  }

  /** Deletes a tree (a used copy); missing is fine. */
  public static void delete(Path root) {
    run("rm", "-rf", root.toString());
  }

  /** Every regular file below {@code root}, as root-relative paths. */
  /**
   * The table's files, relative to {@code root}, without our own {@code _maintenance/} directory
   * (the lease a run leaves): what the contenders are compared on is Lance's files.
   */
  public static java.util.Set<String> listFiles(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .map(path -> root.relativize(path).toString())
          .filter(path -> !TableLease.isLeaseFile(path))
          .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
  }

  public static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void run(String... command) {
    try {
      Process process = new ProcessBuilder(command).inheritIO().start();
      int status = process.waitFor();
      if (status != 0) {
        throw new IllegalStateException(String.join(" ", command) + " exited with " + status);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
    }
  }
}
