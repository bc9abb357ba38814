package dev.lancemaintenance.storage;

/**
 * Which {@link TableStorage} serves a table: the one place that decides. A table on this machine's
 * file system is read and cleaned with java.nio ({@link LocalTableStorage}); every other store goes
 * through Hadoop ({@link HadoopTableStorage}), and so does a local table whose settings name a
 * Hadoop file system for {@code file:} ({@value #LOCAL_FILE_SYSTEM}), since only Hadoop can honour
 * that.
 */
public final class TableStorages {
  /** The Hadoop key that replaces the file system behind {@code file:} URIs. */
  static final String LOCAL_FILE_SYSTEM = "fs.file.impl";

  private TableStorages() {}

  /** Opens the storage of {@code location} with {@code conf}; the caller closes it. */
  public static TableStorage open(TableLocation location, StorageConf conf) {
    return servedLocally(location, conf) ? new LocalTableStorage(location, conf) : new HadoopTableStorage(location, conf);
  }

  /** A factory that opens each location as {@link #open} does, wherever it runs. */
  public static TableStorageFactory factory(StorageConf conf) {
    return new Factory(conf);
  }

  private static boolean servedLocally(TableLocation location, StorageConf conf) {
    return location.localPath().isPresent() && !conf.has(LOCAL_FILE_SYSTEM);
  }

  private record Factory(StorageConf conf) implements TableStorageFactory {
    @Override
    public TableStorage open(TableLocation location) {
      return TableStorages.open(location, conf);
    }
  }
}
