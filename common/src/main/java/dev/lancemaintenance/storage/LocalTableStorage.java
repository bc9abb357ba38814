package dev.lancemaintenance.storage;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link TableStorage} of a table on this machine's file system, with java.nio alone: no Hadoop
 * {@code Configuration} or {@code FileSystem} is made, which a command-line run would pay for in
 * class loading, XML parsing and file-system service loading on every start (docs/benchmarks.md,
 * Cold CLI). {@link TableStorages} chooses it for {@code file:} tables; {@link HadoopTableStorage}
 * hands its local listing, create-if-absent and deletes to it, so local disk has one set of rules.
 *
 * <p>A file that is not there fails with a {@link StorageException} whose cause is a {@link
 * FileNotFoundException}, as Hadoop's local file system reports it, so callers test one cause
 * whichever storage they were given.
 */
public final class LocalTableStorage implements TableStorage {
  private final TableLocation location;
  private final Path root;
  /** The settings {@link #openOther} passes on: another location may be a store that needs them. */
  private final StorageConf conf;
  private Path realRoot;
  private final LeafDirectories leaves = new LeafDirectories();

  /**
   * @throws IllegalArgumentException when {@code location} is not on the local file system
   */
  public LocalTableStorage(TableLocation location, StorageConf conf) {
    this.location = location;
    this.root = location.localPath().orElseThrow(
        () -> new IllegalArgumentException("Not a table on the local file system: " + location));
    this.conf = conf;
  }

  @Override
  public TableLocation location() {
    return location;
  }

  /**
   * The file at a table-relative path, spelt as Hadoop would join it (a doubled slash is one), so
   * that a path with a leading slash stays below the root.
   */
  private Path fileOf(String relative) {
    return relative.isEmpty() ? root : Path.of(root + "/" + relative);
  }

  @Override
  public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
    return new LocalFileWalk(root, fileOf(dir), recursive,
        e -> new StorageException("list", location.resolveRedacted(dir), e));
  }

  /**
   * Names without a {@code stat} where a directory provably holds no subdirectory ({@link
   * LeafDirectories}): on a local disk the {@code stat} per file is most of a listing's cost, and a
   * cleanup needs a file's size, time and type only when no retained version references it.
   */
  @Override
  public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
    return new LocalFileWalk(root, fileOf(dir), recursive, leaves,
        e -> new StorageException("list", location.resolveRedacted(dir), e));
  }

  /** One {@code stat}, not following a link, as the full listing reads every entry. */
  @Override
  public Optional<FileEntry> withAttributes(FileEntry listed) {
    if (listed.attributesRead()) {
      return Optional.of(listed);
    }
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(fileOf(listed.path()), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return attributes.isDirectory() ? Optional.empty() : Optional.of(LocalFileWalk.entryOf(listed.path(), attributes));
    } catch (NoSuchFileException gone) {
      return Optional.empty();
    } catch (IOException e) {
      throw new StorageException("stat", location.resolveRedacted(listed.path()), e);
    }
  }

  /** Directories a link points at count as directories, as Hadoop's local listing counts them. */
  @Override
  public List<String> listDirectories(String dir) {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(fileOf(dir))) {
      for (Path entry : entries) {
        if (Files.isDirectory(entry)) {
          names.add(entry.getFileName().toString());
        }
      }
    } catch (IOException e) {
      throw new StorageException("list the directories of", location.resolveRedacted(dir), missingAsHadoop(e));
    }
    names.sort(null);
    return names;
  }

  @Override
  public byte[] read(String path, long offset, int length) {
    byte[] bytes = new byte[length];
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    try (FileChannel channel = FileChannel.open(fileOf(path), StandardOpenOption.READ)) {
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, offset + buffer.position()) < 0) {
          throw new EOFException("the file ends before byte " + (offset + length));
        }
      }
      return bytes;
    } catch (IOException e) {
      throw new StorageException("read", location.resolveRedacted(path), missingAsHadoop(e));
    }
  }

  @Override
  public byte[] readFully(String path) {
    try {
      return Files.readAllBytes(fileOf(path));
    } catch (IOException e) {
      throw new StorageException("read", location.resolveRedacted(path), missingAsHadoop(e));
    }
  }

  @Override
  public long length(String path) {
    try {
      return Files.size(fileOf(path));
    } catch (IOException e) {
      throw new StorageException("stat", location.resolveRedacted(path), missingAsHadoop(e));
    }
  }

  /** Writes in place, making missing directories on the way (as Hadoop's create does). */
  @Override
  public void write(String path, byte[] content) {
    Path file = fileOf(path);
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, content);
    } catch (IOException e) {
      throw new StorageException("write", location.resolveRedacted(path), e);
    }
  }

  /** A stream into the file, in place, making missing directories on the way; a partial file until closed. */
  @Override
  public OutputStream create(String path) {
    Path file = fileOf(path);
    try {
      Files.createDirectories(file.getParent());
      return Files.newOutputStream(file);
    } catch (IOException e) {
      throw new StorageException("create", location.resolveRedacted(path), e);
    }
  }

  /**
   * The content goes to a private file first, then a hard link gives it its name: {@code link(2)}
   * fails when the name exists, so exactly one racer wins and readers never see a half-written
   * file (Hadoop's local {@code create(overwrite=false)} checks, then creates: two writers can both
   * pass the check).
   */
  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    Path target = fileOf(path);
    try {
      Files.createDirectories(target.getParent());
      Path staged = target.resolveSibling(".staged-" + UUID.randomUUID());
      Files.write(staged, content);
      try {
        Files.createLink(target, staged);
        return true;
      } catch (FileAlreadyExistsException raced) {
        return false;
      } finally {
        Files.deleteIfExists(staged);
      }
    } catch (IOException e) {
      throw new StorageException("create", location.resolveRedacted(path), e);
    }
  }

  /**
   * One java.nio delete per file: it reports why a file stays, removes a link rather than what it
   * points at, and is refused for a file whose directory really lies outside the table root.
   */
  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    if (paths.size() > maxDeleteBatchSize()) {
      throw new IllegalArgumentException(
          "Delete batch of " + paths.size() + " exceeds the store's page size " + maxDeleteBatchSize());
    }
    List<DeleteFailure> failures = new ArrayList<>();
    for (String path : paths) {
      Path file = fileOf(path);
      try {
        Path directory = file.getParent().toRealPath();
        if (!directory.startsWith(realRoot())) {
          failures.add(new DeleteFailure(path, "its directory is " + directory + ", outside the table root"));
          continue;
        }
        Files.deleteIfExists(file);
      } catch (NoSuchFileException gone) {
        // Its directory went away with it: deleted, as a missing file counts.
      } catch (IOException e) {
        failures.add(new DeleteFailure(path, e.toString()));
      }
    }
    return failures;
  }

  /** The table root with every link resolved, so a linked directory cannot pass for one inside it. */
  private synchronized Path realRoot() throws IOException {
    if (realRoot == null) {
      realRoot = root.toRealPath();
    }
    return realRoot;
  }

  @Override
  public int maxDeleteBatchSize() {
    return 1;
  }

  /** The way this storage deletes files: always {@link DeleteRoute#LOCAL}. */
  public DeleteRoute deleteRoute() {
    return DeleteRoute.LOCAL;
  }

  @Override
  public TableStorage openOther(TableLocation other) {
    return TableStorages.open(other, conf);
  }

  /** Nothing to release: every call opens and closes what it uses. */
  @Override
  public void close() {}

  /** java.nio names a missing file NoSuchFileException; Hadoop, and our callers, FileNotFoundException. */
  private static IOException missingAsHadoop(IOException e) {
    if (e instanceof NoSuchFileException missing) {
      FileNotFoundException hadoopStyle = new FileNotFoundException(missing.getMessage());
      hadoopStyle.initCause(missing);
      return hadoopStyle;
    }
    return e;
  }
}
