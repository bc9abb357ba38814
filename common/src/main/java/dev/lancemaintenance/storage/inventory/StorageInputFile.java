package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.StorageInputStream;
import dev.lancemaintenance.storage.TableStorage;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A file of a {@link TableStorage} as Parquet's {@link InputFile}: the report's bucket is read
 * through the same storage layer and settings as the table, on every engine, in ranged reads.
 */
final class StorageInputFile implements InputFile {
  private final TableStorage storage;
  private final String path;

  StorageInputFile(TableStorage storage, String path) {
    this.storage = storage;
    this.path = path;
  }

  @Override
  public long getLength() {
    return storage.length(path);
  }

  @Override
  public SeekableInputStream newStream() {
    StorageInputStream stream = new StorageInputStream(storage, path);
    return new DelegatingSeekableInputStream(stream) {
      @Override
      public long getPos() {
        return stream.position();
      }

      @Override
      public void seek(long position) {
        stream.seek(position);
      }
    };
  }

  @Override
  public String toString() {
    return path;
  }
}
