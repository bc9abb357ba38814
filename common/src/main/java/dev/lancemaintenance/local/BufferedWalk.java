package dev.lancemaintenance.local;

import dev.lancemaintenance.storage.FileEntry;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The walk of one managed directory on a thread of its own, holding what it listed in a bounded
 * buffer until one reader takes it ({@link ListingWalks} starts it beside the mark on a local disk,
 * and says why that is exact). The buffer is made of chunks, each name in a few dozen bytes instead
 * of a {@link FileEntry} (~120 bytes): the names as UTF-8 bytes, each after the length of the part
 * it shares with the name before it in its chunk (at least the directory's own path), then the size
 * and time of a name whose attributes the walk read: on {@code huge-steady} 53.7 bytes a name of
 * {@code data/} (its names are 61 bytes, and in the directory's order share little more than {@code
 * data/}). {@link #files()} gives the names back in the walk's order, exactly as the walk gave them.
 *
 * <p>Bounded: the walker takes a permit for each chunk it fills (at most {@code chunks} of {@code
 * chunkBytes} each, a chunk grown only for a single name longer than it) and the reader gives it
 * back once it read the chunk; a walker with no permit left waits until the reader took a chunk, so
 * the walk never holds more than its bound, and above it goes at the reader's pace, as a walk that
 * is read directly does.
 *
 * <p>A walk that fails hands its failure to the reader after the chunks before it, and the reader
 * throws it where it would have thrown from a direct walk (the listing fails, so the run fails
 * before its decision and any delete). {@link #close} ends the walker (a walker waiting for room is
 * interrupted, one in a walk stops at its next name) and waits for its thread to end.
 */
final class BufferedWalk implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BufferedWalk.class);
  /** A chunk of names: ~4,900 of {@code data/}'s on {@code huge-steady}, a few ms of walk. */
  static final int CHUNK_BYTES = 256 * 1024;
  private static final long CLOSE_WAIT_SECONDS = 60;
  private static final int ENTRY_HEADER_BYTES = 1 + 5 + 5 + 16;

  /** What the walker hands the reader: chunks of names, then the end or the walk's failure. */
  private sealed interface Item permits Chunk, End, Failed {}

  private record Chunk(byte[] bytes, int length) implements Item {}

  private record End() implements Item {}

  private record Failed(Throwable failure) implements Item {}

  private final String name;
  private final int chunkBytes;
  /** Unbounded, as the permits bound the chunks in it, so the end or a failure is always handed over. */
  private final BlockingQueue<Item> items = new LinkedBlockingQueue<>();
  private final Semaphore room;
  private final Thread walker;
  private volatile boolean closed;
  private boolean taken;

  private BufferedWalk(String name, int chunkBytes, int chunks, Supplier<Iterator<FileEntry>> walk) {
    this.name = name;
    this.chunkBytes = chunkBytes;
    this.room = new Semaphore(chunks);
    this.walker = new Thread(() -> walk(walk), name);
    walker.setDaemon(true);
  }

  /**
   * Starts {@code walk} (opened on the walker's thread) into a buffer of {@code boundBytes}, in
   * chunks of {@code chunkBytes} (at least one chunk).
   */
  static BufferedWalk start(String name, Supplier<Iterator<FileEntry>> walk, long boundBytes, int chunkBytes) {
    if (chunkBytes < 1) {
      throw new IllegalArgumentException("chunk bytes must be > 0: " + chunkBytes);
    }
    int chunks = (int) Math.max(1, Math.min(Integer.MAX_VALUE, boundBytes / chunkBytes));
    BufferedWalk ahead = new BufferedWalk(name, chunkBytes, chunks, walk);
    ahead.walker.start();
    return ahead;
  }

  private void walk(Supplier<Iterator<FileEntry>> walk) {
    Iterator<FileEntry> files = null;
    ChunkWriter chunk = null;
    try {
      files = walk.get();
      while (files.hasNext()) {
        if (closed || Thread.currentThread().isInterrupted()) {
          return; // the run ended: nobody reads on
        }
        FileEntry file = files.next();
        byte[] path = file.path().getBytes(StandardCharsets.UTF_8);
        if (chunk != null && !chunk.fits(path)) {
          items.add(chunk.done());
          chunk = null;
        }
        if (chunk == null) {
          room.acquire();
          chunk = new ChunkWriter(Math.max(chunkBytes, ENTRY_HEADER_BYTES + path.length));
        }
        chunk.add(file, path);
      }
      handOver(chunk, new End());
    } catch (InterruptedException e) {
      // Closed while waiting for room: the run ended, nobody reads on.
    } catch (Throwable failure) {
      // The names found before the failure first, as a walk read directly gives them before it throws.
      handOver(chunk, new Failed(failure));
    } finally {
      if (files instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          LOG.debug("lance cleanup: closing the walk {} failed", name, e);
        }
      }
    }
  }

  /** Hands over the chunk being filled, if any, and then how the walk ended. */
  private void handOver(ChunkWriter last, Item end) {
    if (last != null && last.length > 0) {
      items.add(last.done());
    }
    items.add(end);
  }

  /**
   * The walk's names, in its order, for one reader; waits for the walker where the buffer holds no
   * more yet, and throws the walk's failure where the walk failed. A reader interrupted while
   * waiting ends with a {@link CancellationException} (the run is being stopped).
   */
  Iterator<FileEntry> files() {
    if (taken) {
      throw new IllegalStateException("the walk " + name + " is read once");
    }
    taken = true;
    return new Reader();
  }

  /** Ends the walker and waits for its thread to end; what it buffered is dropped. */
  @Override
  public void close() {
    closed = true;
    walker.interrupt();
    try {
      walker.join(TimeUnit.SECONDS.toMillis(CLOSE_WAIT_SECONDS));
      if (walker.isAlive()) {
        LOG.warn("lance cleanup: the walk {} still running {} s after the run ended", name, CLOSE_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    items.clear();
  }

  /** One chunk being filled: per name its type, shared prefix, rest of the name and read attributes. */
  private static final class ChunkWriter {
    private final byte[] bytes;
    private int length;
    private byte[] previous = new byte[0];

    ChunkWriter(int capacity) {
      this.bytes = new byte[capacity];
    }

    boolean fits(byte[] path) {
      return length + ENTRY_HEADER_BYTES + path.length <= bytes.length;
    }

    void add(FileEntry file, byte[] path) {
      int shared = Arrays.mismatch(previous, path);
      if (shared < 0) {
        shared = path.length; // the same name again: the walk gives it twice, so the reader does too
      }
      bytes[length++] = (byte) file.type().ordinal();
      writeVarInt(shared);
      writeVarInt(path.length - shared);
      System.arraycopy(path, shared, bytes, length, path.length - shared);
      length += path.length - shared;
      if (file.attributesRead()) {
        writeLong(file.size());
        writeLong(file.modificationTimeMillis());
      }
      previous = path;
    }

    Chunk done() {
      return new Chunk(bytes, length);
    }

    private void writeVarInt(int value) {
      while ((value & ~0x7F) != 0) {
        bytes[length++] = (byte) ((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      bytes[length++] = (byte) value;
    }

    private void writeLong(long value) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        bytes[length++] = (byte) (value >>> shift);
      }
    }
  }

  private static final FileEntry.EntryType[] TYPES = FileEntry.EntryType.values();

  /** Reads the chunks back in order, giving each chunk's room back once it read it. */
  private final class Reader implements Iterator<FileEntry> {
    private Chunk chunk;
    private int at;
    private byte[] path = new byte[256];
    private boolean ended;

    @Override
    public boolean hasNext() {
      while (chunk == null || at == chunk.length()) {
        if (chunk != null) {
          chunk = null;
          room.release();
        }
        if (ended) {
          return false;
        }
        Item item = take();
        if (item instanceof Chunk next) {
          chunk = next;
          at = 0;
        } else if (item instanceof Failed failed) {
          ended = true;
          throw rethrown(failed.failure());
        } else {
          ended = true;
        }
      }
      return true;
    }

    @Override
    public FileEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      byte[] bytes = chunk.bytes();
      FileEntry.EntryType type = TYPES[bytes[at++]];
      int shared = readVarInt(bytes);
      int rest = readVarInt(bytes);
      if (path.length < shared + rest) {
        path = Arrays.copyOf(path, Math.max(2 * path.length, shared + rest));
      }
      // The first `shared` bytes are the previous name's, still in place.
      System.arraycopy(bytes, at, path, shared, rest);
      at += rest;
      String name = new String(path, 0, shared + rest, StandardCharsets.UTF_8);
      if (type == FileEntry.EntryType.UNREAD) {
        return FileEntry.unread(name);
      }
      long size = readLong(bytes);
      long time = readLong(bytes);
      return new FileEntry(name, size, time, type);
    }

    private Item take() {
      try {
        return items.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException("cleanup stopped while waiting for the walk " + name);
      }
    }

    private int readVarInt(byte[] bytes) {
      int value = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = bytes[at++];
        value |= (b & 0x7F) << shift;
        if (b >= 0) {
          return value;
        }
      }
    }

    private long readLong(byte[] bytes) {
      long value = 0;
      for (int i = 0; i < 8; i++) {
        value = (value << 8) | (bytes[at++] & 0xFF);
      }
      return value;
    }
  }

  private static RuntimeException rethrown(Throwable failure) {
    if (failure instanceof RuntimeException runtime) {
      return runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(failure);
  }
}
