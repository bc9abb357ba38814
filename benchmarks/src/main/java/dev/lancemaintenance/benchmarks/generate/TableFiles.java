package dev.lancemaintenance.benchmarks.generate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * Writes the files of one generated table and counts them. Seed files are hard-linked (fast, no
 * space; every link shares the seed's inode and so its old mtime) or copied (each copy gets the
 * mtime of the version that wrote it); files of our own get their version's commit time.
 */
public final class TableFiles {
  /** How seed files land in the generated table. */
  public enum DataMode {
    LINK,
    COPY
  }

  private final Path root;
  private final DataMode mode;
  /** The mtime every linked seed file gets: older than any version, so cleanup may delete links. */
  private final FileTime linkedTime;
  private final java.util.Set<Path> agedSeeds = new java.util.HashSet<>();
  private long files;
  private long bytes;

  TableFiles(Path root, DataMode mode, Instant linkedTime) {
    this.root = root;
    this.mode = mode;
    this.linkedTime = FileTime.from(linkedTime);
  }

  Path root() {
    return root;
  }

  long files() {
    return files;
  }

  long bytes() {
    return bytes;
  }

  /** Writes {@code content} at the table-relative {@code path}, last modified at {@code time}. */
  void write(String path, byte[] content, Instant time) {
    Path target = root.resolve(path);
    try {
      Files.write(target, content);
      Files.setLastModifiedTime(target, FileTime.from(time));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
    files++;
    bytes += content.length;
  }

  /** Places {@code seed} at the table-relative {@code path}, written at {@code time}. */
  void place(SeedFile seed, String path, Instant time) {
    Path target = root.resolve(path);
    try {
      if (mode == DataMode.LINK) {
        // Links share the seed's inode, so its mtime: made older than the history once, or
        // cleanup would keep every file as "newer than the earliest retained manifest".
        if (agedSeeds.add(seed.path())) {
          Files.setLastModifiedTime(seed.path(), linkedTime);
        }
        Files.createLink(target, seed.path());
      } else {
        Files.copy(seed.path(), target, StandardCopyOption.COPY_ATTRIBUTES);
        Files.setLastModifiedTime(target, FileTime.from(time));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot place " + seed.path() + " at " + target, e);
    }
    files++;
    bytes += seed.size();
  }

  void createDirectories(String path) {
    try {
      Files.createDirectories(root.resolve(path));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + root.resolve(path), e);
    }
  }
}
