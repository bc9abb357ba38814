package dev.lancemaintenance.storage;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records what a run asked of the store: every path read (ranged reads and lengths), every
 * directory listed, and every path deleted, in request order. One {@link Log} is shared by all
 * the storages a factory opens during a run. The table's lease files are not recorded: they are
 * the lease's, not the cleanup's.
 */
public final class CountingTableStorage extends ForwardingTableStorage {
  /** The logs of {@link #sharedFactory}, by name: tasks of this JVM find theirs after deserialisation. */
  private static final Map<String, Log> SHARED = new ConcurrentHashMap<>();

  private final Log log;

  public CountingTableStorage(TableStorage delegate, Log log) {
    super(delegate);
    this.log = log;
  }

  /** A factory that opens local Hadoop storage wrapped to record into {@code log}. */
  public static TableStorageFactory factory(Log log) {
    return location -> new CountingTableStorage(new HadoopTableStorage(location, StorageConf.defaults()), log);
  }

  /**
   * A factory that survives serialisation, for engines that ship it to their tasks in this JVM
   * (Spark local mode, a Flink MiniCluster): every storage it opens records into the log {@link
   * #sharedLog} returns for {@code name}.
   */
  public static TableStorageFactory sharedFactory(String name) {
    SHARED.computeIfAbsent(name, n -> new Log());
    return new SharedLogFactory(name);
  }

  /** The log of {@link #sharedFactory}{@code (name)}. */
  public static Log sharedLog(String name) {
    return SHARED.computeIfAbsent(name, n -> new Log());
  }

  private record SharedLogFactory(String name) implements TableStorageFactory {
    @Override
    public TableStorage open(TableLocation location) {
      return new CountingTableStorage(new HadoopTableStorage(location, StorageConf.defaults()), sharedLog(name));
    }
  }

  @Override
  public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
    if (!TableLease.isLeaseFile(dir)) {
      log.add(log.listed, dir);
    }
    return super.listFiles(dir, recursive);
  }

  @Override
  public byte[] read(String path, long offset, int length) {
    if (!TableLease.isLeaseFile(path)) {
      log.add(log.read, path);
    }
    return super.read(path, offset, length);
  }

  @Override
  public long length(String path) {
    if (!TableLease.isLeaseFile(path)) {
      log.add(log.read, path);
    }
    return super.length(path);
  }

  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    List<DeleteFailure> failures = super.deleteBatch(paths);
    List<String> failed = failures.stream().map(DeleteFailure::path).toList();
    for (String path : paths) {
      if (!failed.contains(path) && !TableLease.isLeaseFile(path)) {
        log.add(log.deleted, path);
      }
    }
    return failures;
  }

  /** Thread-safe record of requests; the engine calls storage from several threads. */
  public static final class Log {
    private final List<String> read = new ArrayList<>();
    private final List<String> listed = new ArrayList<>();
    private final List<String> deleted = new ArrayList<>();

    private synchronized void add(List<String> list, String path) {
      list.add(path);
    }

    /** Paths read or stat-ed, in order, with repeats. */
    public synchronized List<String> read() {
      return List.copyOf(read);
    }

    /** Directories listed, in order. */
    public synchronized List<String> listed() {
      return List.copyOf(listed);
    }

    /** Paths deleted successfully, in the order their requests returned. */
    public synchronized List<String> deleted() {
      return List.copyOf(deleted);
    }
  }
}
