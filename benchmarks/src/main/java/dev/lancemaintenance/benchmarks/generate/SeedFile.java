package dev.lancemaintenance.benchmarks.generate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A real file of the seed table that generated tables link or copy, with its size. */
record SeedFile(Path path, long size) {
  static SeedFile of(Path path) {
    try {
      return new SeedFile(path, Files.size(path));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stat seed file " + path, e);
    }
  }

  String fileName() {
    return path.getFileName().toString();
  }
}
