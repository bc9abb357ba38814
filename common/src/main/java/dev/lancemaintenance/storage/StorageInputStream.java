package dev.lancemaintenance.storage;

import java.io.InputStream;

/**
 * A file of a {@link TableStorage} as a stream, read in ranges so that it never sits whole in
 * memory (an inventory report, a large table's ledger segment); {@link #seek} moves it, for a
 * columnar reader that reads a footer first. Each range is a request of its own on an object store.
 */
public final class StorageInputStream extends InputStream {
  /** Bytes a range asks for: few requests, a small array live at a time. */
  public static final int CHUNK_BYTES = 4 << 20;

  private final TableStorage storage;
  private final String path;
  private final long length;
  private final int chunkBytes;
  /** Where {@link #chunk} starts in the file. */
  private long chunkStart;
  private byte[] chunk = new byte[0];
  private int offsetInChunk;

  /** The whole file, at the length the store gives (a status request first). */
  public StorageInputStream(TableStorage storage, String path) {
    this(storage, path, storage.length(path), CHUNK_BYTES);
  }

  /**
   * The file's first {@code length} bytes, without asking the store for its length (a round trip on
   * an object store), for a caller that recorded it: a shorter file fails at the read that reaches
   * past its end ({@link StorageException} caused by an {@link java.io.EOFException}).
   */
  public StorageInputStream(TableStorage storage, String path, long length, int chunkBytes) {
    if (chunkBytes < 1) {
      throw new IllegalArgumentException("chunkBytes must be at least 1: " + chunkBytes);
    }
    this.storage = storage;
    this.path = path;
    this.length = length;
    this.chunkBytes = chunkBytes;
  }

  public long length() {
    return length;
  }

  /** The position of the next byte read. */
  public long position() {
    return chunkStart + offsetInChunk;
  }

  /** Moves to {@code position}; the chunk in memory is kept when it holds it. */
  public void seek(long position) {
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

  /** What is left to {@link #length}: a reader that checks a count against it refuses a damaged one early. */
  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(0, length - position()));
  }

  private boolean fill() {
    if (offsetInChunk < chunk.length) {
      return true;
    }
    long position = position();
    if (position >= length) {
      return false;
    }
    int size = (int) Math.min(chunkBytes, length - position);
    chunk = new byte[0]; // let the range read go before the next one is read
    chunk = storage.read(path, position, size);
    chunkStart = position;
    offsetInChunk = 0;
    return chunk.length > 0;
  }
}
