package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.TableStorage;
import java.io.InputStream;

/** A file of a {@link TableStorage} as a stream, read in ranges so that it never sits whole in memory. */
final class StorageInputStream extends InputStream {
  private static final int CHUNK = 4 << 20;

  private final TableStorage storage;
  private final String path;
  private final long length;
  private long position;
  private byte[] chunk = new byte[0];
  private int offsetInChunk;

  StorageInputStream(TableStorage storage, String path) {
    this.storage = storage;
    this.path = path;
    this.length = storage.length(path);
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
    if (position >= length) {
      return false;
    }
    int size = (int) Math.min(CHUNK, length - position);
    chunk = storage.read(path, position, size);
    position += chunk.length;
    offsetInChunk = 0;
    return chunk.length > 0;
  }
}
