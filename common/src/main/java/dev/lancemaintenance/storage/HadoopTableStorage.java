package dev.lancemaintenance.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.util.functional.FutureIO;

/**
 * {@link TableStorage} over Hadoop's {@link FileSystem}, so {@code file:}, {@code hdfs:},
 * {@code s3a:}, {@code abfs:} and {@code gs:} tables all work.
 *
 * <p>Runs on Hadoop 3.3 and 3.4 clients alike: it calls only APIs Hadoop 3.3.0 has (Spark 3.5
 * ships 3.3.4), and the one newer API it uses, 3.4.1's {@code BulkDelete}, is chosen once per
 * storage where the client has it ({@link DeleteRoute}, {@link HadoopDeletes#open}). Deletes go in
 * bulk where the store has bulk deletes (s3a on a 3.4 client: one DeleteObjects request per page),
 * as parallel single deletes elsewhere. A recursive walk on s3a (3.4 clients) lists a directory of
 * more than one page in key ranges side by side ({@link RecursiveListing}). The instance owns its
 * {@code FileSystem} (opened with {@code newInstance}) and closes it.
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
  /**
   * Files a page of parallel single deletes takes: s3a's default DeleteObjects page
   * (fs.s3a.bulk.delete.page.size), so a page weighs the same for retries and the delete rate
   * limit on either route.
   */
  static final int SINGLE_DELETE_PAGE_SIZE = 250;

  private final TableLocation location;
  private final StorageConf conf;
  /** The file system opened for this table; closing it closes {@link #fs} too. */
  private final FileSystem opened;
  /** Where reads, lists, writes and deletes go. */
  private final FileSystem fs;
  private final Path root;
  private final String rootPath;
  /** The root's URI scheme in lower case ({@code s3a}, {@code hdfs}, {@code file}; {@code "null"} when it has none), read once. */
  private final String scheme;
  /**
   * Where every read, listing, write and delete goes when the table is on the local file system (one set of rules
   * for local disk, and java.nio's calls instead of Hadoop's streams and statuses), else null.
   */
  private final LocalTableStorage local;
  /** How directories are walked when the table is not on local disk, else null. */
  private final RecursiveListing recursiveListing;
  /**
   * The store's own times, where it assigns them and s3a reaches them ({@link StoreTimes}); opened
   * at the first call that needs them (only a run with {@code listing => 'auto'} does), null before.
   */
  private Optional<StoreTimes> storeTimes;
  /** How files are deleted when the table is not on local disk; chosen at the first delete. */
  private HadoopDeletes deletes;

  public HadoopTableStorage(TableLocation location, StorageConf conf) {
    this.location = location;
    this.conf = conf;
    this.root = new Path(location.uri());
    this.scheme = String.valueOf(root.toUri().getScheme()).toLowerCase(Locale.ROOT);
    try {
      this.opened = FileSystem.newInstance(root.toUri(), S3ExpectContinue.configure(scheme, conf.toConfiguration()));
    } catch (IOException e) {
      throw new StorageException("open file system for", location.toString(), e);
    }
    // Hadoop's local file system checksums through ".crc" side files, which Lance never writes:
    // every open and delete would look for one in vain (a third of a local cleanup's time). The
    // raw file system underneath reads and deletes the files alone.
    this.fs = opened instanceof LocalFileSystem local ? local.getRawFileSystem() : opened;
    this.rootPath = root.toUri().getPath();
    this.local = fs instanceof RawLocalFileSystem ? new LocalTableStorage(location, conf) : null;
    this.recursiveListing = local == null ? RecursiveListing.of(fs, scheme) : null;
  }

  /** A factory that opens Hadoop storage with {@code conf} wherever it runs. */
  public static TableStorageFactory factory(StorageConf conf) {
    return new Factory(conf);
  }

  @Override
  public TableLocation location() {
    return location;
  }

  @Override
  public TableStorage openOther(TableLocation other) {
    return new HadoopTableStorage(other, conf);
  }

  private Path pathOf(String relative) {
    return relative.isEmpty() ? root : new Path(location.resolve(relative));
  }

  private String relativeOf(Path path) {
    return relativeOf(path.toUri().getPath());
  }

  /** A listed file's name in the table: from its key when the listing gives one ({@link RecursiveListing.KeyNamed}), else from its path. */
  private String relativeOf(FileStatus status) {
    return status instanceof RecursiveListing.KeyNamed named ? relativeOf("/" + named.key()) : relativeOf(status.getPath());
  }

  private String relativeOf(String full) {
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
    if (local != null) {
      // Hadoop's local listing costs a Hadoop path and two or more system calls per file (its
      // listFiles even forks ls for permissions).
      return local.listFiles(dir, recursive);
    }
    RemoteIterator<? extends FileStatus> files;
    try {
      files = recursive ? recursiveListing.listFiles(pathOf(dir)) : filesOnly(fs.listStatusIterator(pathOf(dir)));
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
          return new FileEntry(relativeOf(status), status.getLen(), status.getModificationTime(), type);
        } catch (IOException e) {
          throw new StorageException("list", location.resolveRedacted(dir), e);
        }
      }
    };
  }

  /**
   * The files of a directory's own listing, its subdirectories left out (and, as by {@code
   * FileSystem.listFiles}, anything that is not a plain file): what {@code listFiles(dir, false)}
   * gives, without the status probe s3a adds to it. s3a lists a directory
   * and, when the listing shows nothing, asks whether the path is a file or an empty directory
   * (a HEAD of the key, then a 2-key LIST), two round trips in a row. Its {@code listFiles}
   * counts only files, so a directory that holds only subdirectories ({@code _maintenance/} of a
   * table the ledger was written to, before its first lease) sends both; {@code
   * listStatusIterator} makes the same one-level listing and counts the subdirectories too, so
   * such a directory is known to exist at once (HADOOP-17023: s3a lists first and probes only
   * after an empty listing, Hadoop 3.3.1 on). The answers are the same: the same files, a missing
   * directory still fails with {@code FileNotFoundException}, and a path that is a file lists as
   * that file, in both calls.
   */
  private static RemoteIterator<FileStatus> filesOnly(RemoteIterator<FileStatus> statuses) {
    return new RemoteIterator<>() {
      private FileStatus next;

      @Override
      public boolean hasNext() throws IOException {
        while (next == null && statuses.hasNext()) {
          FileStatus status = statuses.next();
          next = status.isFile() ? status : null;
        }
        return next != null;
      }

      @Override
      public FileStatus next() throws IOException {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        FileStatus file = next;
        next = null;
        return file;
      }
    };
  }

  /** Whether directories are walked in key ranges side by side ({@link S3KeyRangeListing}). */
  boolean walksInKeyRanges() {
    return recursiveListing != null && !(recursiveListing instanceof RecursiveListing.Plain);
  }

  /** Names without attributes where the table is on local disk ({@link LocalTableStorage}); the listing's own elsewhere. */
  @Override
  public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
    return local != null ? local.listFilesDeferringAttributes(dir, recursive) : listFiles(dir, recursive);
  }

  @Override
  public Optional<FileEntry> withAttributes(FileEntry listed) {
    return local != null ? local.withAttributes(listed) : TableStorage.super.withAttributes(listed);
  }

  /*
   * openFile() options: Hadoop 3.3.5+ names them in Options.OpenFileOptions, spelt out here so that
   * this class loads on older clients, which ignore opt() keys they do not know (3.3.4's s3a then
   * sends its HEAD before the GET). Values go as strings: opt(String, long) is Hadoop 3.4's, and
   * compiled against 3.3 a long would bind to opt(String, float).
   */
  private static final String OPENFILE_LENGTH = "fs.option.openfile.length";
  private static final String OPENFILE_READ_POLICY = "fs.option.openfile.read.policy";
  private static final String READ_POLICY_RANDOM = "random";
  private static final String READ_POLICY_WHOLE_FILE = "whole-file";

  @Override
  public byte[] read(String path, long offset, int length) {
    if (local != null) {
      // Hadoop's local open costs a status of four system calls and a buffered stream per file,
      // more than reading a small manifest does (docs/benchmarks.md, "The local engine's
      // contenders open the table as the CLI does").
      return local.read(path, offset, length);
    }
    byte[] buffer = new byte[length];
    // The caller knows the file reaches offset + length, so passing that as the file's length spares
    // object stores the HEAD request that open() would send before the GET (s3a: half of the
    // requests of a manifest read); a file that is shorter still fails, at the read. The random
    // policy asks for this range, not for the rest of the file.
    try (FSDataInputStream in = FutureIO.awaitFuture(fs.openFile(pathOf(path))
        .opt(OPENFILE_LENGTH, Long.toString(offset + length))
        .opt(OPENFILE_READ_POLICY, READ_POLICY_RANDOM)
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
    if (local != null) {
      return local.readFully(path);
    }
    try (FSDataInputStream in = FutureIO.awaitFuture(fs.openFile(pathOf(path))
        .opt(OPENFILE_READ_POLICY, READ_POLICY_WHOLE_FILE)
        .build())) {
      return in.readAllBytes();
    } catch (IOException | UncheckedIOException e) {
      throw new StorageException("read", location.resolveRedacted(path), e);
    }
  }

  @Override
  public List<String> listDirectories(String dir) {
    if (local != null) {
      return local.listDirectories(dir);
    }
    try {
      List<String> names = new ArrayList<>();
      for (FileStatus status : fs.listStatus(pathOf(dir))) {
        if (status.isDirectory()) {
          names.add(status.getPath().getName());
        }
      }
      names.sort(null);
      return names;
    } catch (IOException e) {
      throw new StorageException("list the directories of", location.resolveRedacted(dir), e);
    }
  }

  @Override
  public long length(String path) {
    if (local != null) {
      return local.length(path);
    }
    try {
      return fs.getFileStatus(pathOf(path)).getLen();
    } catch (IOException e) {
      throw new StorageException("stat", location.resolveRedacted(path), e);
    }
  }

  @Override
  public OutputStream create(String path) {
    if (local != null) {
      // Hadoop's local create sets the file's permissions, without native code by forking chmod.
      return local.create(path);
    }
    try {
      return createOverwriting(pathOf(path));
    } catch (IOException e) {
      throw new StorageException("create", location.resolveRedacted(path), e);
    }
  }

  @Override
  public void write(String path, byte[] content) {
    if (local != null) {
      // As create: Hadoop's local create forks chmod for the file (and for each directory it
      // makes), a few ms per ledger segment that the run's lease release waits for.
      local.write(path, content);
      return;
    }
    try (FSDataOutputStream out = createOverwriting(pathOf(path))) {
      out.write(content);
    } catch (IOException e) {
      throw new StorageException("write", location.resolveRedacted(path), e);
    }
  }

  /**
   * {@code create(overwrite=true)}, without s3a's checks that no directory sits at or above the
   * path ({@value #S3A_CREATE_PERFORMANCE}: a listing request before every PUT). Our files are
   * written under fresh names beneath directories we own (a ledger segment, a run's recorded
   * parts), never over a directory, so the check can only cost a round trip. Other stores ignore
   * the option.
   */
  private FSDataOutputStream createOverwriting(Path target) throws IOException {
    org.apache.hadoop.fs.FSDataOutputStreamBuilder<?, ?> create = fs.createFile(target);
    create.overwrite(true).recursive();
    create.opt(S3A_CREATE_PERFORMANCE, "true");
    return create.build();
  }

  private static final String S3A_CREATE_PERFORMANCE = "fs.s3a.create.performance";

  /**
   * Create-if-absent on each store's own atomic primitive:
   *
   * <ul>
   *   <li>local disk: a hard link to a fully written private file ({@link
   *       LocalTableStorage#createIfAbsent});
   *   <li>HDFS: {@code create(overwrite=false)}, which the NameNode decides atomically;
   *   <li>S3 (s3a): a conditional PUT, {@code If-None-Match: *} (hadoop-aws 3.4.2:
   *       {@code createFile().must("fs.option.create.conditional.overwrite", true)}, with {@code
   *       fs.s3a.create.conditional.enabled}, on by default); the store answers 412 when the key
   *       exists. AWS S3 has honoured it since August 2024. s3proxy 2.6.0 does not: its PUT
   *       handler reads no conditional header and the last writer wins ({@code S3LeaseIT} pins
   *       this); nor may other S3-compatible stores. A store that ignores the header cannot be
   *       detected here, so {@link TableLease} reads its lease back after creating it, which
   *       narrows (not closes) the window in which two racers both win on such a store;
   *   <li>ABFS and GCS: {@code create(overwrite=false)}, which their connectors send as a
   *       conditional create ({@code If-None-Match: *}, {@code ifGenerationMatch=0});
   *   <li>any other store, s3a with {@code fs.s3a.create.conditional.enabled=false}, and s3a on
   *       Hadoop clients before 3.4.2 (Spark 3.5's 3.3.4), which have no conditional PUT: there is
   *       no atomic primitive we know of, so this falls back to Hadoop's check-then-create and
   *       logs a warning once: two runs that start within the same moment can then both win.
   * </ul>
   */
  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    try {
      if (local != null) {
        return local.createIfAbsent(path, content);
      }
      if (scheme.equals("s3a")) {
        if (conditionalCreate()) {
          return conditionalPut(path, content);
        }
        warnNotAtomic("the s3a client sends no conditional PUT (Hadoop before 3.4.2, or"
            + " fs.s3a.create.conditional.enabled=false)");
      }
      if (!ATOMIC_CREATE_SCHEMES.contains(scheme)) {
        warnNotAtomic("the store has no atomic create-if-absent that we know of");
      }
      return createNoOverwrite(pathOf(path), content);
    } catch (IOException e) {
      throw new StorageException("create", location.resolveRedacted(path), e);
    }
  }

  /** Stores whose {@code create(overwrite=false)} is decided atomically by the store itself. */
  private static final Set<String> ATOMIC_CREATE_SCHEMES = Set.of("hdfs", "viewfs", "abfs", "abfss", "gs");
  private static final String CONDITIONAL_CREATE = "fs.option.create.conditional.overwrite";
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(HadoopTableStorage.class);
  private volatile boolean warnedNotAtomic;
  private Boolean conditionalCreate;

  private boolean createNoOverwrite(Path target, byte[] content) throws IOException {
    try (FSDataOutputStream out = fs.create(target, false)) {
      out.write(content);
      return true;
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException raced) {
      return false;
    } catch (IOException e) {
      if (beingCreatedByAnother(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * HDFS: another client is creating the same file right now and holds its NameNode lease
   * ({@code AlreadyBeingCreatedException}): that client won the race (HdfsLeaseIT).
   */
  private static boolean beingCreatedByAnother(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause.getClass().getSimpleName().equals("AlreadyBeingCreatedException")
          || (cause instanceof org.apache.hadoop.ipc.RemoteException remote
              && remote.getClassName().endsWith(".AlreadyBeingCreatedException"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether this s3a client sends {@code If-None-Match: *} for {@link #CONDITIONAL_CREATE}: asked
   * once, of the client itself. hadoop-aws 3.4.2 answers with {@code
   * fs.s3a.create.conditional.enabled}; older clients (Spark 3.5's 3.3.4) do not know the option
   * and would refuse it as an unknown mandatory key.
   */
  private synchronized boolean conditionalCreate() throws IOException {
    if (conditionalCreate == null) {
      conditionalCreate = fs.hasPathCapability(root, CONDITIONAL_CREATE);
    }
    return conditionalCreate;
  }

  private boolean conditionalPut(String path, byte[] content) throws IOException {
    FSDataOutputStream out;
    try {
      org.apache.hadoop.fs.FSDataOutputStreamBuilder<?, ?> create = fs.createFile(pathOf(path));
      create.overwrite(false);
      create.must(CONDITIONAL_CREATE, true);
      out = create.build();
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException exists) {
      return false;
    }
    try {
      out.write(content);
      out.close();
      return true;
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException exists) {
      return false;
    } catch (IOException e) {
      if (lostConditionalPut(e)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * 412 Precondition Failed (s3a raises it as its {@code RemoteFileChangedException}): the key
   * exists. 409 ConditionalRequestConflict: a racing conditional PUT on the same key was in flight
   * and the store wrote nothing for this one. Either way this caller lost, which is always safe: it
   * tries again later. (hadoop-aws is not on common's compile path, hence the name test.)
   */
  private static boolean lostConditionalPut(IOException e) {
    String message = String.valueOf(e.getMessage());
    return e.getClass().getSimpleName().equals("RemoteFileChangedException")
        || message.contains("412") || message.contains("PreconditionFailed")
        || message.contains("409") || message.contains("ConditionalRequestConflict");
  }

  private void warnNotAtomic(String why) {
    if (!warnedNotAtomic) {
      warnedNotAtomic = true;
      LOG.warn("lance maintenance {}: {}; the table's maintenance lease is best effort here: two runs that start"
          + " at the same moment can both take it", location, why);
    }
  }

  /**
   * Deletes by the storage's {@link DeleteRoute}: in bulk where client and store have bulk deletes
   * (s3a, which reports each key that failed), else one request per file, a page in parallel, each
   * result checked (Hadoop's default bulk delete ignores the {@code false} a file system's {@code
   * delete} returns for a file it could not remove, issue 12, item 10). Local files are deleted as
   * {@link LocalTableStorage#deleteBatch} deletes them.
   */
  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    if (paths.size() > maxDeleteBatchSize()) {
      throw new IllegalArgumentException(
          "Delete batch of " + paths.size() + " exceeds the store's page size " + maxDeleteBatchSize());
    }
    if (local != null) {
      return local.deleteBatch(paths);
    }
    List<Path> hadoopPaths = new ArrayList<>(paths.size());
    for (String path : paths) {
      hadoopPaths.add(pathOf(path));
    }
    List<DeleteFailure> failures = new ArrayList<>();
    try {
      for (Map.Entry<Path, String> failure : deletes().delete(hadoopPaths)) {
        failures.add(new DeleteFailure(relativeOf(failure.getKey()), failure.getValue()));
      }
    } catch (IOException | RuntimeException e) {
      for (String path : paths) {
        failures.add(new DeleteFailure(path, String.valueOf(e.getMessage())));
      }
    }
    return failures;
  }

  @Override
  public boolean requestsWaitOnNetwork() {
    return OBJECT_STORE_SCHEMES.contains(scheme);
  }

  @Override
  public OptionalLong listingHorizonMillis() {
    return storeTimes().map(times -> times.horizonMillis(root)).orElse(OptionalLong.empty());
  }

  @Override
  public List<FileEntry> filesWithPrefix(String prefix) {
    Optional<StoreTimes> times = storeTimes();
    if (times.isEmpty()) {
      return TableStorage.super.filesWithPrefix(prefix);
    }
    try {
      List<FileEntry> files = new ArrayList<>();
      for (FileStatus status : times.get().filesWithPrefix(root, prefix)) {
        files.add(new FileEntry(relativeOf(status.getPath()), status.getLen(), status.getModificationTime()));
      }
      return files;
    } catch (IOException e) {
      throw new StorageException("list", location.resolveRedacted(prefix), e);
    }
  }

  @Override
  public int suggestedConcurrency() {
    return requestsWaitOnNetwork() ? OBJECT_STORE_CONCURRENCY : TableStorage.super.suggestedConcurrency();
  }

  @Override
  public int maxDeleteBatchSize() {
    return local != null ? local.maxDeleteBatchSize() : deletes().pageSize();
  }

  /** The way this storage deletes files (decided at the first delete, then fixed). */
  public DeleteRoute deleteRoute() {
    return local != null ? local.deleteRoute() : deletes().route();
  }

  private synchronized Optional<StoreTimes> storeTimes() {
    if (storeTimes == null) {
      storeTimes = Optional.ofNullable(local == null ? StoreTimes.of(fs, scheme) : null);
    }
    return storeTimes;
  }

  private synchronized HadoopDeletes deletes() {
    if (deletes == null) {
      try {
        deletes = HadoopDeletes.open(fs, root, suggestedConcurrency(), SINGLE_DELETE_PAGE_SIZE);
      } catch (IOException e) {
        throw new StorageException("open deletes for", location.toString(), e);
      }
    }
    return deletes;
  }

  @Override
  public void close() {
    try {
      synchronized (this) {
        if (deletes != null) {
          deletes.close();
        }
      }
      if (recursiveListing != null) {
        recursiveListing.close();
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
