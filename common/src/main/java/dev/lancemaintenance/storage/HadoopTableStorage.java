package dev.lancemaintenance.storage;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options.OpenFileOptions;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.util.functional.FutureIO;

/**
 * {@link TableStorage} over Hadoop's {@link FileSystem}, so {@code file:}, {@code hdfs:},
 * {@code s3a:}, {@code abfs:} and {@code gs:} tables all work.
 *
 * <p>Deletes go through Hadoop's {@link BulkDelete} where the store has it (s3a: one
 * DeleteObjects request per page); elsewhere Hadoop's default implementation deletes one file per
 * call. The instance owns its {@code FileSystem} (opened with {@code newInstance}) and closes it.
 */
public final class HadoopTableStorage implements TableStorage {
  /** Hadoop's object store connectors: every request there waits for a network round trip. */
  private static final Set<String> OBJECT_STORE_SCHEMES =
      Set.of("s3a", "s3", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cosn", "obs");
  /**
   * Requests in flight on object stores: at 20 ms a request, 64 threads read about 3,000 small
   * objects a second, enough to keep 2 cores decoding manifests; well below s3a's connection pool
   * (fs.s3a.connection.maximum, 500 by default).
   */
  static final int OBJECT_STORE_CONCURRENCY = 64;

  private final TableLocation location;
  /** The file system opened for this table; closing it closes {@link #fs} too. */
  private final FileSystem opened;
  /** Where reads, lists, writes and deletes go. */
  private final FileSystem fs;
  private final Path root;
  private final String rootPath;
  /** The root as a java.nio path when the table is on the local file system, else null. */
  private final java.nio.file.Path localRoot;
  private java.nio.file.Path realLocalRoot;
  private BulkDelete bulkDelete;

  public HadoopTableStorage(TableLocation location, StorageConf conf) {
    this.location = location;
    this.root = new Path(location.uri());
    try {
      this.opened = FileSystem.newInstance(root.toUri(), conf.toConfiguration());
    } catch (IOException e) {
      throw new StorageException("open file system for", location.toString(), e);
    }
    // Hadoop's local file system checksums through ".crc" side files, which Lance never writes:
    // every open and delete would look for one in vain (a third of a local cleanup's time). The
    // raw file system underneath reads and deletes the files alone.
    this.fs = opened instanceof LocalFileSystem local ? local.getRawFileSystem() : opened;
    this.rootPath = root.toUri().getPath();
    this.localRoot = fs instanceof RawLocalFileSystem ? new File(rootPath).toPath() : null;
  }

  /** A factory that opens Hadoop storage with {@code conf} wherever it runs. */
  public static TableStorageFactory factory(StorageConf conf) {
    return new Factory(conf);
  }

  @Override
  public TableLocation location() {
    return location;
  }

  private Path pathOf(String relative) {
    return relative.isEmpty() ? root : new Path(location.resolve(relative));
  }

  private String relativeOf(Path path) {
    String full = path.toUri().getPath();
    if (full.equals(rootPath)) {
      return "";
    }
    String prefix = rootPath.endsWith("/") ? rootPath : rootPath + "/";
    if (!full.startsWith(prefix)) {
      throw new PathEscapeException(location.toString(), full, "listed outside the table root");
    }
    return full.substring(prefix.length());
  }

  @Override
  public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
    if (localRoot != null) {
      return localFiles(dir, recursive);
    }
    RemoteIterator<? extends FileStatus> files;
    try {
      files = fs.listFiles(pathOf(dir), recursive);
    } catch (FileNotFoundException e) {
      return java.util.Collections.emptyIterator();
    } catch (IOException e) {
      throw new StorageException("list", location.resolveRedacted(dir), e);
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        try {
          return files.hasNext();
        } catch (FileNotFoundException e) {
          return false;
        } catch (IOException e) {
          throw new StorageException("list", location.resolveRedacted(dir), e);
        }
      }

      @Override
      public FileEntry next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        try {
          FileStatus status = files.next();
          FileEntry.EntryType type = status.isSymlink() ? FileEntry.EntryType.LINK : FileEntry.EntryType.FILE;
          return new FileEntry(relativeOf(status.getPath()), status.getLen(), status.getModificationTime(), type);
        } catch (IOException e) {
          throw new StorageException("list", location.resolveRedacted(dir), e);
        }
      }
    };
  }

  /**
   * Local tables are listed with java.nio: Hadoop's local listing costs a Hadoop path and two or
   * more system calls per file (its listFiles even forks {@code ls} for permissions).
   */
  private Iterator<FileEntry> localFiles(String dir, boolean recursive) {
    return new LocalFileWalk(localRoot, dir.isEmpty() ? localRoot : localRoot.resolve(dir), recursive,
        e -> new StorageException("list", location.resolveRedacted(dir), e));
  }

  @Override
  public byte[] read(String path, long offset, int length) {
    byte[] buffer = new byte[length];
    // The caller knows the file reaches offset + length, so passing that as the file's length spares
    // object stores the HEAD request that open() would send before the GET (s3a: half of the
    // requests of a manifest read); a file that is shorter still fails, at the read. The random
    // policy asks for this range, not for the rest of the file.
    try (FSDataInputStream in = FutureIO.awaitFuture(fs.openFile(pathOf(path))
        .opt(OpenFileOptions.FS_OPTION_OPENFILE_LENGTH, offset + length)
        .opt(OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_RANDOM)
        .build())) {
      in.readFully(offset, buffer);
      return buffer;
    } catch (IOException | UncheckedIOException e) {
      throw new StorageException("read", location.resolveRedacted(path), e);
    }
  }

  /** One open and read to the end: a status request fewer than {@code length} then {@code read}. */
  @Override
  public byte[] readFully(String path) {
    try (FSDataInputStream in = FutureIO.awaitFuture(fs.openFile(pathOf(path))
        .opt(OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_WHOLE_FILE)
        .build())) {
      return in.readAllBytes();
    } catch (IOException | UncheckedIOException e) {
      throw new StorageException("read", location.resolveRedacted(path), e);
    }
  }

  @Override
  public long length(String path) {
    try {
      return fs.getFileStatus(pathOf(path)).getLen();
    } catch (IOException e) {
      throw new StorageException("stat", location.resolveRedacted(path), e);
    }
  }

  @Override
  public void write(String path, byte[] content) {
    try (FSDataOutputStream out = fs.create(pathOf(path), true)) {
      out.write(content);
    } catch (IOException e) {
      throw new StorageException("write", location.resolveRedacted(path), e);
    }
  }

  /**
   * Deletes through the store's own bulk delete where it has one (s3a, which reports each key that
   * failed). Elsewhere Hadoop's default bulk delete ignores the {@code false} a file system's
   * {@code delete} returns for a file it could not remove (issue 12, item 10), so each file is
   * deleted here and a {@code false} is a failure unless the file is gone. Local files are deleted
   * with java.nio, which reports why, removes a link rather than what it points at, and is refused
   * for a file whose directory really lies outside the table root.
   */
  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    if (paths.size() > maxDeleteBatchSize()) {
      throw new IllegalArgumentException(
          "Delete batch of " + paths.size() + " exceeds the store's page size " + maxDeleteBatchSize());
    }
    if (localRoot != null) {
      return deleteLocally(paths);
    }
    if (maxDeleteBatchSize() == 1) {
      return deleteOneByOne(paths);
    }
    List<Path> hadoopPaths = new ArrayList<>(paths.size());
    for (String path : paths) {
      hadoopPaths.add(pathOf(path));
    }
    List<DeleteFailure> failures = new ArrayList<>();
    try {
      // Hadoop's contract: a missing file is not a failure, which is what cleanup wants.
      for (Map.Entry<Path, String> failure : bulkDelete().bulkDelete(hadoopPaths)) {
        failures.add(new DeleteFailure(relativeOf(failure.getKey()), failure.getValue()));
      }
    } catch (IOException | RuntimeException e) {
      for (String path : paths) {
        failures.add(new DeleteFailure(path, String.valueOf(e.getMessage())));
      }
    }
    return failures;
  }

  private List<DeleteFailure> deleteOneByOne(List<String> paths) {
    List<DeleteFailure> failures = new ArrayList<>();
    for (String path : paths) {
      Path hadoopPath = pathOf(path);
      try {
        // false means "not deleted": fine when the file is already gone, a failure when it is not.
        if (!fs.delete(hadoopPath, false) && fs.exists(hadoopPath)) {
          failures.add(new DeleteFailure(path, "the file system did not delete it"));
        }
      } catch (IOException | RuntimeException e) {
        failures.add(new DeleteFailure(path, String.valueOf(e.getMessage())));
      }
    }
    return failures;
  }

  private List<DeleteFailure> deleteLocally(List<String> paths) {
    List<DeleteFailure> failures = new ArrayList<>();
    for (String path : paths) {
      java.nio.file.Path file = localRoot.resolve(path);
      try {
        java.nio.file.Path directory = file.getParent().toRealPath();
        if (!directory.startsWith(realLocalRoot())) {
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
  private synchronized java.nio.file.Path realLocalRoot() throws IOException {
    if (realLocalRoot == null) {
      realLocalRoot = localRoot.toRealPath();
    }
    return realLocalRoot;
  }

  @Override
  public int suggestedConcurrency() {
    String scheme = root.toUri().getScheme();
    return scheme != null && OBJECT_STORE_SCHEMES.contains(scheme.toLowerCase(Locale.ROOT))
        ? OBJECT_STORE_CONCURRENCY
        : TableStorage.super.suggestedConcurrency();
  }

  @Override
  public int maxDeleteBatchSize() {
    return localRoot != null ? 1 : bulkDelete().pageSize();
  }

  private synchronized BulkDelete bulkDelete() {
    if (bulkDelete == null) {
      try {
        bulkDelete = fs.createBulkDelete(root);
      } catch (IOException e) {
        throw new StorageException("open bulk delete for", location.toString(), e);
      }
    }
    return bulkDelete;
  }

  @Override
  public void close() {
    try {
      if (bulkDelete != null) {
        bulkDelete.close();
      }
      opened.close();
    } catch (IOException e) {
      throw new StorageException("close file system for", location.toString(), e);
    }
  }

  private record Factory(StorageConf conf) implements TableStorageFactory {
    @Override
    public TableStorage open(TableLocation location) {
      return new HadoopTableStorage(location, conf);
    }
  }
}
