package dev.lancemaintenance.benchmarks.generate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Fresh copies of a table for each benchmark run, through {@code cp -a}: it keeps mtimes (which
 * decide what cleanup may delete) and hard links, and copies a million files faster than a Java walk.
 */
public final class CopyTree {
  private CopyTree() {}

  public static void copy(Path source, Path target) {
    run("cp", "-a", source.toString(), target.toString());
  }

  /** Deletes a tree (a used copy); missing is fine. */
  public static void delete(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
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
