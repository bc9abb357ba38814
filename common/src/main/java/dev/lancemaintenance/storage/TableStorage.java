package dev.lancemaintenance.storage;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The narrow view of a table's store that maintenance needs, rooted at one table's root.
 *
 * <p>Every path is table-relative (see {@link TablePaths}). The surface is deliberately small so
 * that tests can wrap it to count requests, add latency or inject faults, and so that each engine
 * can open one per task from a serializable {@link TableStorageFactory}.
 *
 * <p>Left out on purpose: writes other than what maintenance itself needs, directory deletes
 * (cleanup deletes files, never trees), and any atomicity across a batch of deletes.
 */
public interface TableStorage extends Closeable {

  /** The root every path is relative to. */
  TableLocation location();

  /**
   * Lazily lists every file (not directory) at or below {@code dir}; {@code ""} is the root. A
   * missing directory lists as empty. Order is the store's.
   */
  Iterator<FileEntry> listFiles(String dir, boolean recursive);

  /**
   * As {@link #listFiles}, for a caller that needs the size, time and type of only some of the
   * files: where reading them costs a call per file of its own (a {@code stat} on a local disk,
   * while the directory itself gives names only), the store may leave them unread, as {@link
   * FileEntry.EntryType#UNREAD} entries that are never directories; {@link #withAttributes} reads
   * them. An object store's listing carries them anyway: the default lists as {@link #listFiles}.
   */
  default Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
    return listFiles(dir, recursive);
  }

  /**
   * A listed file with its size, time and type read: itself when the listing gave them; empty when
   * the file went away since (or is a directory now), as for a file a listing would not have shown
   * a moment later.
   */
  default Optional<FileEntry> withAttributes(FileEntry listed) {
    if (listed.attributesRead()) {
      return Optional.of(listed);
    }
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " lists no file without its attributes, yet was given " + listed.path());
  }

  /**
   * The names of the directories directly under {@code dir} (relative to the root), sorted; a
   * missing {@code dir} is an error. For finding tables under a namespace root, not for the files of
   * a table.
   */
  List<String> listDirectories(String dir);

  /** Reads {@code length} bytes at {@code offset}; fails if the file is shorter. */
  byte[] read(String path, long offset, int length);

  /** The length of a file in bytes. */
  long length(String path);

  /** Reads a whole file. */
  default byte[] readFully(String path) {
    long length = length(path);
    if (length > Integer.MAX_VALUE - 8) {
      throw new StorageException("read", path, new IllegalStateException("file too large: " + length));
    }
    return read(path, 0, (int) length);
  }

  /**
   * Reads a file at the size a listing just gave it, without asking the store for its length: on an
   * object store one GET where {@link #readFully} sends a HEAD first, a round trip of its own. For
   * files that are never rewritten and whose readers refuse a cut (an end line, a checksum): the
   * lease's and the ledger's. A file shorter than listed fails; one longer reads as its listed
   * prefix, which such a reader refuses. An entry whose size is unread is read in full.
   */
  default byte[] readAsListed(FileEntry listed) {
    if (!listed.attributesRead() || listed.size() > Integer.MAX_VALUE - 8) {
      return readFully(listed.path());
    }
    return read(listed.path(), 0, (int) listed.size());
  }

  /** Writes a whole file, replacing any file at that path. */
  void write(String path, byte[] content);

  /**
   * Creates a file, replacing any at that path, to be written as a stream: for files too long to
   * hold in memory (a sweep task's record of the files it deleted). What a reader sees before
   * {@code close} depends on the store (a partial file on a local disk or HDFS, nothing on S3, where
   * the upload completes on close), so such files end with a marker their readers require. The
   * default buffers and writes the whole file on close.
   */
  default OutputStream create(String path) {
    TableStorage storage = this;
    return new ByteArrayOutputStream() {
      @Override
      public void close() {
        storage.write(path, toByteArray());
      }
    };
  }

  /**
   * Creates {@code path} with {@code content} unless a file is already there, as one atomic step
   * where the store has one: of two callers racing for one path, exactly one gets {@code true}.
   * What each store offers, and what happens where it offers nothing, is {@link
   * HadoopTableStorage#createIfAbsent}'s to say; {@link TableLease} is built on it.
   *
   * @return true when this call created the file; false when one was there
   */
  boolean createIfAbsent(String path, byte[] content);

  /**
   * Deletes a batch of at most {@link #maxDeleteBatchSize()} files. A file that is already gone
   * counts as deleted. Failures are returned, not thrown, so that one bad key does not hide the
   * outcome of the others.
   */
  List<DeleteFailure> deleteBatch(List<String> paths);

  /**
   * Whether each request waits for a network round trip (object stores, tens of ms each) rather
   * than answering at once from a disk. A run orders its stages by it where the order changes only
   * where the time goes, never what is decided: on such a store the key snapshot's path lists
   * beside its mark, since the listing's pages wait on the network while the mark waits for its new
   * manifests (docs/ledger.md, section 12.5).
   */
  default boolean requestsWaitOnNetwork() {
    return false;
  }

  /**
   * A store time before which every object still under the table is one a listing started after
   * this call shows (or one a {@code PUT} in flight since before it writes), where the store assigns
   * modification times itself and no client can set them; empty where it cannot tell (a local
   * disk, HDFS, a store that does not answer): a run never skips its listing there
   * (docs/ledger.md, section 11.3). One request on S3 ({@code ListMultipartUploads}).
   */
  default OptionalLong listingHorizonMillis() {
    return OptionalLong.empty();
  }

  /**
   * The files whose table-relative path starts with {@code prefix}, with the attributes a listing
   * gives: one key and what shares it (an index directory, a data file's blob sidecars) in one
   * request on S3, examined instead of a listing of its directory (docs/ledger.md, section 11.4).
   * Here by listing the prefix's directory: for stores that have no cheaper way.
   */
  default List<FileEntry> filesWithPrefix(String prefix) {
    int slash = prefix.lastIndexOf('/');
    String dir = slash < 0 ? "" : prefix.substring(0, slash);
    List<FileEntry> files = new java.util.ArrayList<>();
    listFiles(dir, true).forEachRemaining(file -> {
      if (file.path().startsWith(prefix)) {
        files.add(file);
      }
    });
    return files;
  }

  /**
   * How many requests a run should keep in flight against this store when its caller does not say:
   * few where a request costs CPU and answers at once (local disk), many where it mostly waits for
   * a network round trip (object stores, tens of ms each). Engines on one machine size their I/O
   * thread pools with it.
   */
  default int suggestedConcurrency() {
    return Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
  }

  /**
   * Opens another location with this storage's settings (credentials, endpoint), e.g. the bucket an
   * S3 Inventory report of this table lives in; the caller closes it.
   */
  default TableStorage openOther(TableLocation other) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot open " + other);
  }

  /** The largest batch {@link #deleteBatch} takes in one request (1 where the store has no bulk delete). */
  int maxDeleteBatchSize();

  @Override
  void close();

  /** A file that could not be deleted, and why. */
  record DeleteFailure(String path, String reason) implements java.io.Serializable {}
}
