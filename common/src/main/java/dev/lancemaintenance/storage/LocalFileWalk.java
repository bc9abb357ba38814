package dev.lancemaintenance.storage;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Lists the files below a local directory, depth first, with one {@code stat} per entry and one
 * open directory stream per level; or, when given {@link LeafDirectories}, with no {@code stat} for
 * the entries of a directory that provably holds no subdirectory: those come as names ({@link
 * FileEntry.EntryType#UNREAD}), whose attributes {@link #entryOf} makes once read. Hadoop's local file system costs far more per file (its
 * listFiles forks {@code ls} for permissions; even its listStatus builds a Hadoop path and stats
 * each file twice), which is most of a local cleanup's listing time. Files and directories that
 * vanish while the walk runs are skipped, as a listing that started a moment later would; other
 * I/O errors end the walk with the caller's exception.
 *
 * <p>Symbolic links are never followed: a linked directory may lie outside the table, and a walk
 * that entered it would offer files of another tree to the cleanup (issue 12, item 9). A link is
 * reported as itself ({@link FileEntry.EntryType#LINK}, its own size and time); a walk whose
 * directory is reached through a link below the root lists nothing.
 */
final class LocalFileWalk implements Iterator<FileEntry>, AutoCloseable {
  private final Path root;
  private final boolean recursive;
  private final Function<IOException, RuntimeException> failure;
  /** Where names may come without attributes; null to read every entry's. */
  private final LeafDirectories leaves;
  private final Deque<Level> open = new ArrayDeque<>();
  private FileEntry next;

  /**
   * An open directory; {@code leaf}: it has no subdirectory, so its entries need no {@code stat};
   * {@code prefix}: its path relative to the root, with a trailing slash (empty for the root);
   * {@code nameFrom}: where an entry's name starts in the entry's path string.
   */
  private record Level(DirectoryStream<Path> stream, Iterator<Path> entries, boolean leaf, String prefix, int nameFrom,
      int relativeFrom) {
    /**
     * The root-relative path of one of its entries: the directory's own relative path, worked out
     * once, and the entry's name. The same string as {@code root.relativize(entry)}, since an entry
     * is its directory's path plus one name, without a relativize per file (visible in a profile of listing `_versions/`).
     * The name is cut from the entry's path string: the stream gives each entry as its directory's
     * path resolved against the name, so the string is the directory's, a slash (none after an
     * empty directory string or one that ends in a slash, the file system root) and the name, the same name {@code
     * getFileName()} gives, decoded alike ('/' is ASCII, so no undecodable sequence spans the cut).
     * {@code getFileName()} scanned the whole path for its separators and made another path per
     * entry: the walk of {@code huge-steady}'s 717,916 names in {@code data/} takes 16 % less time
     * without it (docs/benchmarks.md, "{@code huge-steady}'s daily run on local disk: the walk's
     * names cut from the path"). {@code relativeFrom}: where the root-relative path starts in an
     * entry's path string when the directory's path string is the root's followed by its relative
     * path (as when the walk resolved it from the root, every directory it pushes itself), so that
     * the relative path is one cut of the entry's string instead of a cut and a concatenation (one
     * string fewer per name: 921,921 on {@code huge-steady}, docs/benchmarks.md, "stop 34"); -1
     * otherwise (a directory given in another spelling), which takes the prefix and the name.
     */
    String relative(Path entry) {
      String path = entry.toString();
      return relativeFrom >= 0 ? path.substring(relativeFrom) : prefix + path.substring(nameFrom);
    }

    /** Where an entry's name starts in the path string of an entry of {@code dir}. */
    static int nameFrom(Path dir) {
      String path = dir.toString();
      return path.isEmpty() || path.endsWith("/") ? path.length() : path.length() + 1;
    }

    /**
     * Where the root-relative path of an entry of {@code dir} starts in the entry's path string, or
     * -1 when {@code dir}'s string is not the root's, its separator and {@code relative} (so that an
     * entry's string is not the root's followed by {@code prefix} and the name).
     */
    static int relativeFrom(Path root, Path dir, String relative) {
      int from = nameFrom(root);
      String path = dir.toString();
      if (relative.isEmpty()) {
        return path.equals(root.toString()) ? from : -1;
      }
      return path.length() == from + relative.length() && path.startsWith(root.toString()) && path.endsWith(relative)
          && (from == 0 || path.charAt(from - 1) == '/') ? from : -1;
    }
  }

  /**
   * Walks {@code dir} (below {@code root}); paths come out relative to {@code root}, and an I/O
   * error is thrown as {@code failure} makes it.
   */
  LocalFileWalk(Path root, Path dir, boolean recursive, Function<IOException, RuntimeException> failure) {
    this(root, dir, recursive, null, failure);
  }

  /**
   * As {@link #LocalFileWalk(Path, Path, boolean, Function)}; the entries of the directories that
   * {@code leaves} proves to have no subdirectory come unread.
   */
  LocalFileWalk(
      Path root, Path dir, boolean recursive, LeafDirectories leaves, Function<IOException, RuntimeException> failure) {
    this.root = root;
    this.recursive = recursive;
    this.leaves = leaves;
    this.failure = failure;
    if (!reachedThroughLink(root, dir)) {
      push(dir);
    }
  }

  /** Whether a directory below {@code root} (or {@code root} itself, excluded) is or lies under a link. */
  private boolean reachedThroughLink(Path root, Path dir) {
    Path relative = root.relativize(dir);
    Path current = root;
    for (Path name : relative) {
      if (name.toString().isEmpty()) {
        continue;
      }
      current = current.resolve(name);
      if (Files.isSymbolicLink(current)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean hasNext() {
    while (next == null && !open.isEmpty()) {
      Level level = open.peek();
      Path entry;
      try {
        if (!level.entries().hasNext()) {
          closeQuietly(open.pop());
          continue;
        }
        entry = level.entries().next();
      } catch (DirectoryIteratorException e) {
        throw failure.apply(e.getCause());
      }
      if (level.leaf()) {
        next = FileEntry.unread(level.relative(entry));
        continue;
      }
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException removedMeanwhile) {
        continue;
      } catch (IOException e) {
        throw failure.apply(e);
      }
      if (attributes.isDirectory()) {
        if (recursive) {
          push(entry);
        }
      } else {
        next = entryOf(level.relative(entry), attributes);
      }
    }
    return next != null;
  }

  /** The entry of a file or link at a table-relative {@code path} with its attributes, read without following links. */
  static FileEntry entryOf(String path, BasicFileAttributes attributes) {
    FileEntry.EntryType type = attributes.isSymbolicLink() ? FileEntry.EntryType.LINK : FileEntry.EntryType.FILE;
    return new FileEntry(path, attributes.size(), attributes.lastModifiedTime().toMillis(), type);
  }

  @Override
  public FileEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    FileEntry result = next;
    next = null;
    return result;
  }

  private void push(Path dir) {
    try {
      DirectoryStream<Path> stream = Files.newDirectoryStream(dir);
      boolean leaf;
      try {
        // After the open: a subdirectory made before it counts in the link count read here.
        leaf = leaves != null && leaves.isLeaf(dir);
      } catch (IOException e) {
        stream.close();
        throw e;
      }
      String relative = root.relativize(dir).toString();
      open.push(new Level(stream, stream.iterator(), leaf, relative.isEmpty() ? "" : relative + "/", Level.nameFrom(dir),
          Level.relativeFrom(root, dir, relative)));
    } catch (NoSuchFileException | NotDirectoryException missing) {
      // A directory that does not exist (or went away) has no files to report.
    } catch (IOException e) {
      throw failure.apply(e);
    }
  }

  @Override
  public void close() {
    while (!open.isEmpty()) {
      closeQuietly(open.pop());
    }
  }

  private static void closeQuietly(Level level) {
    try {
      level.stream().close();
    } catch (IOException ignored) {
      // Nothing was written; a failed close of a directory stream loses nothing.
    }
  }
}
