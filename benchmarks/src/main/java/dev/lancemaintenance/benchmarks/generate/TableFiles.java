package dev.lancemaintenance.benchmarks.generate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes the files of one generated table and counts them. Seed files are hard-linked (fast, no
 * space; every link shares the seed's inode and so its old mtime) or copied (each copy gets the
 * mtime of the version that wrote it); files of our own get their version's commit time.
 */
public final class TableFiles {
  private static final int LINKS_PER_INODE = 60_000;
  /** How seed files land in the generated table. */
  public enum DataMode {
    LINK,
    COPY
  }

  private final Path root;
  private final DataMode mode;
  /** The mtime every linked seed file gets: older than any version, so cleanup may delete links. */
  private final FileTime linkedTime;
  /** Per seed file: the file links currently point at (the seed, then copies) and its link count. */
  private final Map<Path, LinkSource> linkSources = new HashMap<>();
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
        Files.createLink(target, linkSource(seed.path()));
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

  /**
   * The file to link a copy of {@code seed} to. File systems cap the links of one inode (ext4:
   * 65,000), fewer than the million files of the huge shape, so every {@value #LINKS_PER_INODE}
   * links move on to a fresh copy of the seed, kept next to the table in {@code
   * <table>.link-sources/}. Links share the inode's mtime, so each source is made
   * older than the history once, or cleanup would keep every link as "newer than the earliest
   * retained manifest".
   */
  private Path linkSource(Path seed) throws IOException {
    LinkSource current = linkSources.get(seed);
    if (current == null || current.links() >= LINKS_PER_INODE) {
      Path source = seed;
      if (current != null) {
        Path dir = root.resolveSibling(root.getFileName() + ".link-sources");
        Files.createDirectories(dir);
        source = dir.resolve(seed.getFileName() + "." + current.generation());
        Files.copy(seed, source, StandardCopyOption.REPLACE_EXISTING);
      }
      Files.setLastModifiedTime(source, linkedTime);
      current = new LinkSource(source, current == null ? 1 : current.generation() + 1, 0);
    }
    linkSources.put(seed, current.withOneMoreLink());
    return current.path();
  }

  private record LinkSource(Path path, int generation, int links) {
    LinkSource withOneMoreLink() {
      return new LinkSource(path, generation, links + 1);
    }
  }

  void createDirectories(String path) {
    try {
      Files.createDirectories(root.resolve(path));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + root.resolve(path), e);
    }
  }
}
