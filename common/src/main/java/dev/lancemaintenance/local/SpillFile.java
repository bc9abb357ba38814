package dev.lancemaintenance.local;

import dev.lancemaintenance.MaintenanceException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * An append-only file of records on local disk, so the local engine can hold millions of paths
 * without holding them in memory. Appends are synchronized: mark and list tasks share partitions.
 */
final class SpillFile<T> implements AutoCloseable {
  /** Writes and reads one record. */
  interface Codec<T> {
    void write(DataOutputStream out, T record) throws IOException;

    T read(DataInputStream in) throws IOException;
  }

  private final Path path;
  private final Codec<T> codec;
  private DataOutputStream out;
  private long count;

  SpillFile(Path path, Codec<T> codec) {
    this.path = path;
    this.codec = codec;
  }

  synchronized void append(T record) {
    try {
      if (out == null) {
        out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16));
      }
      codec.write(out, record);
      count++;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write spill file " + path, e);
    }
  }

  synchronized long count() {
    return count;
  }

  /** Reads every record back, in append order. Call after all appends. */
  void forEach(Consumer<T> consumer) {
    synchronized (this) {
      closeWriter();
      if (count == 0) {
        return;
      }
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16))) {
      while (true) {
        T record;
        try {
          record = codec.read(in);
        } catch (EOFException end) {
          return;
        }
        consumer.accept(record);
      }
    } catch (IOException e) {
      throw new MaintenanceException("Cannot read spill file " + path, e);
    }
  }

  private void closeWriter() {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close spill file " + path, e);
      }
      out = null;
    }
  }

  @Override
  public synchronized void close() {
    closeWriter();
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete spill file " + path, e);
    }
  }
}
