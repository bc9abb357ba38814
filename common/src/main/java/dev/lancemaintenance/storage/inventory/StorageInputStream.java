package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.TableStorage;
import java.io.InputStream;

/**
 * A file of a {@link TableStorage} as a stream, read in ranges so that it never sits whole in
 * memory; {@link #seek} moves it, for a columnar reader that reads a footer first.
 */
final class StorageInputStream extends InputStream {
  private static final int CHUNK = 4 << 20;

  private final TableStorage storage;
  private final String path;
  private final long length;
  /** Where {@link #chunk} starts in the file. */
  private long chunkStart;
  private byte[] chunk = new byte[0];
  private int offsetInChunk;

  StorageInputStream(TableStorage storage, String path) {
    this.storage = storage;
    this.path = path;
    this.length = storage.length(path);
  }

  long length() {
    return length;
  }

  /** The position of the next byte read. */
  long position() {
    return chunkStart + offsetInChunk;
  }

  /** Moves to {@code position}; the chunk in memory is kept when it holds it. */
  void seek(long position) {
    if (position < 0 || position > length) {
      throw new IllegalArgumentException("seek to " + position + " in " + path + " of " + length + " bytes");
    }
    if (position >= chunkStart && position <= chunkStart + chunk.length) {
      offsetInChunk = (int) (position - chunkStart);
    } else {
      chunkStart = position;
      chunk = new byte[0];
      offsetInChunk = 0;
    }
  }

  @Override
  public int read() {
    if (!fill()) {
      return -1;
    }
    return chunk[offsetInChunk++] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int count) {
    if (count == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(count, chunk.length - offsetInChunk);
    System.arraycopy(chunk, offsetInChunk, buffer, offset, n);
    offsetInChunk += n;
    return n;
  }

  private boolean fill() {
    if (offsetInChunk < chunk.length) {
      return true;
    }
    long position = position();
    if (position >= length) {
      return false;
    }
    int size = (int) Math.min(CHUNK, length - position);
    chunk = storage.read(path, position, size);
    chunkStart = position;
    offsetInChunk = 0;
    return chunk.length > 0;
  }
}
