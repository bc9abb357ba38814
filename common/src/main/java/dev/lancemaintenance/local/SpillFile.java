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
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An append-only sequence of records that stays in memory while the run's {@link SpillBudget}
 * allows and moves to a file on local disk once it does not, so the local engine can hold millions
 * of paths without holding them in memory, and a small table's run writes no file at all. Appends
 * are synchronized: mark and list tasks share partitions.
 *
 * <p>Where the records wait changes nothing a reader sees: {@link #forEach} gives every record in
 * append order either way, and the records are immutable values that the {@link Codec} writes and
 * reads back field for field (SpillsTest reads the same records through memory, through disk and
 * through a file that moved to disk half way).
 */
final class SpillFile<T> implements AutoCloseable {
  /** Writes and reads one record. */
  interface Codec<T> {
    void write(DataOutputStream out, T record) throws IOException;

    T read(DataInputStream in) throws IOException;
  }

  private final SpillDirectory directory;
  private final String name;
  /** Where the records went once they moved to disk; null before. */
  private Path path;
  private final Codec<T> codec;
  private final SpillBudget budget;
  /** The records while they fit the budget; null once they moved to {@link #path}. */
  private List<T> inMemory = new ArrayList<>();
  private DataOutputStream out;
  private long count;

  SpillFile(SpillDirectory directory, String name, Codec<T> codec, SpillBudget budget) {
    this.directory = directory;
    this.name = name;
    this.codec = codec;
    this.budget = budget;
  }

  synchronized void append(T record) {
    if (inMemory != null && budget.tryTake()) {
      inMemory.add(record);
      count++;
      return;
    }
    try {
      if (inMemory != null) {
        moveToDisk();
      } else if (out == null) {
        // Read back since: go on after what is on disk.
        out = new DataOutputStream(new BufferedOutputStream(
            Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND), 1 << 16));
      }
      codec.write(out, record);
      count++;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write spill file " + path, e);
    }
  }

  /** Writes the records held so far to the file, in order, and hands their share of the budget back. */
  private void moveToDisk() throws IOException {
    path = directory.file(name);
    out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16));
    for (T held : inMemory) {
      codec.write(out, held);
    }
    budget.giveBack(inMemory.size());
    inMemory = null;
  }

  synchronized long count() {
    return count;
  }

  /** Whether every record appended so far is held in memory (none went to disk). */
  synchronized boolean inMemory() {
    return inMemory != null;
  }

  /** Reads every record back, in append order. Call after all appends. */
  void forEach(Consumer<T> consumer) {
    List<T> held;
    synchronized (this) {
      held = inMemory;
      if (held == null) {
        closeWriter();
      }
    }
    if (held != null) {
      // Outside the lock, as the file is read: the consumer may append to another spill.
      held.forEach(consumer);
      return;
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
    if (inMemory != null) {
      budget.giveBack(inMemory.size());
      inMemory = null;
      return;
    }
    closeWriter();
    if (path == null) {
      return;
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete spill file " + path, e);
    }
  }
}
