package dev.lancemaintenance.ledger;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The frame every binary ledger file shares ({@link LedgerSegment}, {@link ExpiryRecord}): a magic
 * and a format number, the records, a CRC-32C of everything before it and an end magic. A file cut
 * short, changed in any byte, or of another kind never decodes ({@link LedgerFormatException}).
 */
final class LedgerFile {
  /** Writes a file's records. */
  interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  /** Reads a file's records back. */
  interface Reader<T> {
    T read(DataInputStream in) throws IOException;
  }

  private static final int TRAILER = Long.BYTES + 8;

  private final String kind;
  private final byte[] magic;
  private final byte[] endMagic;
  private final int format;

  /** @param magic and {@code endMagic}: eight ASCII characters each */
  LedgerFile(String kind, String magic, String endMagic, int format) {
    this.kind = kind;
    this.magic = magic.getBytes(StandardCharsets.US_ASCII);
    this.endMagic = endMagic.getBytes(StandardCharsets.US_ASCII);
    this.format = format;
    if (this.magic.length != 8 || this.endMagic.length != 8) {
      throw new IllegalArgumentException("magics are eight bytes: " + magic + ", " + endMagic);
    }
  }

  /** The file's bytes, for files small enough to hold in memory. */
  byte[] encode(Body body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      write(bytes, body);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * Writes the file to {@code sink} as it is encoded, the checksum taken on the way: a ledger
   * segment that summarises a large table's whole history (its first run) runs to hundreds of MB,
   * and a copy of it in memory, let alone the two a byte array's growth and its checksum made,
   * failed that run's commit in a 512 MB heap. Flushes {@code sink} and leaves it open.
   *
   * @return the length and CRC-32C of everything written, as {@link LedgerCommit.SegmentRef} records them
   */
  Written write(OutputStream sink, Body body) throws IOException {
    CheckedOutputStream whole = new CheckedOutputStream(new BufferedOutputStream(sink, BUFFER_BYTES), new CRC32C());
    CountingOutputStream counted = new CountingOutputStream(whole);
    CheckedOutputStream framed = new CheckedOutputStream(counted, new CRC32C());
    DataOutputStream out = new DataOutputStream(framed);
    out.write(magic);
    out.writeInt(format);
    body.write(out);
    out.writeLong(framed.getChecksum().getValue());
    out.write(endMagic);
    out.flush();
    return new Written(counted.count, whole.getChecksum().getValue());
  }

  /** What {@link #write} wrote: its length and the CRC-32C of all of it. */
  record Written(long length, long crc32c) {}

  private static final int BUFFER_BYTES = 64 * 1024;

  /** Counts the bytes that pass. */
  private static final class CountingOutputStream extends FilterOutputStream {
    private long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }

  /** Decodes a file of this kind held in memory; {@code name} is for the message. */
  <T> T decode(String name, byte[] content, Reader<T> body) {
    return decode(name, new ByteArrayInputStream(content), content.length, body);
  }

  /**
   * Decodes a file of this kind from {@code content}, which holds {@code length} bytes, as they
   * pass: a large table's ledger segment (136 MB on {@code huge-steady}) is never whole in memory.
   * Refuses what a decode of the whole array refused, with the same message, whichever comes first
   * in the stream: a magic missing at either end or a file too short to hold the frame (cut short
   * or not ours), then the format, the records, where they end, the checksum. When it refuses it
   * reads {@code content} to the end first (its end magic is there, and outranks the rest), so a
   * caller that checks what it read whole ({@link SegmentReader}) can do so after.
   */
  <T> T decode(String name, InputStream content, long length, Reader<T> body) {
    Ends ends = new Ends(content, magic.length, endMagic.length);
    try {
      return decodeInOrder(name, ends, length, body);
    } catch (LedgerFormatException refused) {
      ends.drain();
      if (length < magic.length + TRAILER || !ends.startsWith(magic) || !ends.endsWith(endMagic)) {
        throw notComplete(name);
      }
      throw refused;
    }
  }

  private <T> T decodeInOrder(String name, InputStream content, long length, Reader<T> body) {
    if (length < magic.length + TRAILER) {
      throw notComplete(name);
    }
    long bodyLength = length - TRAILER;
    CountingInputStream counted = new CountingInputStream(new BufferedInputStream(content, BUFFER_BYTES));
    CheckedInputStream framed = new CheckedInputStream(counted, new CRC32C());
    DataInputStream in = new DataInputStream(framed);
    try {
      if (!Arrays.equals(in.readNBytes(magic.length), magic)) {
        throw notComplete(name);
      }
      int found = in.readInt();
      if (found != format) {
        throw new LedgerFormatException(name, kind + " format " + found + ", this release reads " + format);
      }
      T decoded = body.read(in);
      if (counted.count != bodyLength) {
        throw new LedgerFormatException(name, "records end at byte " + counted.count + ", the checksum at " + bodyLength);
      }
      long crc = framed.getChecksum().getValue();
      if (in.readLong() != crc) {
        throw new LedgerFormatException(name, "checksum mismatch");
      }
      if (!Arrays.equals(in.readNBytes(endMagic.length), endMagic)) {
        throw notComplete(name);
      }
      return decoded;
    } catch (IOException | IllegalArgumentException e) {
      throw new LedgerFormatException(name, "records do not decode: " + e.getMessage());
    }
  }

  private LedgerFormatException notComplete(String name) {
    return new LedgerFormatException(name, "not a complete " + kind + " (magic missing: cut short or not ours)");
  }

  /** Counts the bytes read through it: where the records end, for a file longer than an array's index. */
  private static final class CountingInputStream extends FilterInputStream {
    private long count;

    CountingInputStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = in.skip(n);
      count += skipped;
      return skipped;
    }
  }

  /**
   * Keeps a stream's first and last few bytes as they pass, for the magics at both ends of a file
   * that is refused in its middle: a decode of the whole array checked them before anything else.
   */
  private static final class Ends extends FilterInputStream {
    private final byte[] first;
    private final byte[] last;
    private long passed;

    Ends(InputStream in, int firstBytes, int lastBytes) {
      super(in);
      this.first = new byte[firstBytes];
      this.last = new byte[lastBytes];
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        keep((byte) b);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      keep(b, off, n);
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      // Through read, so that every byte is kept.
      return Math.max(0, read(new byte[(int) Math.min(Math.max(n, 0), BUFFER_BYTES)]));
    }

    private void keep(byte b) {
      if (passed < first.length) {
        first[(int) passed] = b;
      }
      last[(int) (passed % last.length)] = b;
      passed++;
    }

    /**
     * Keeps what the ends need of {@code n} bytes passing at once: those among the stream's first
     * few, and the chunk's last few (a byte at stream position {@code p} goes to {@code last[p % size]},
     * so only the chunk's tail can still be among the last bytes). Not byte by byte: a segment is
     * 136 MB on {@code huge-steady}.
     */
    private void keep(byte[] b, int off, int n) {
      if (n <= 0) {
        return;
      }
      for (int i = 0; i < n && passed + i < first.length; i++) {
        first[(int) (passed + i)] = b[off + i];
      }
      for (int i = Math.max(0, n - last.length); i < n; i++) {
        last[(int) ((passed + i) % last.length)] = b[off + i];
      }
      passed += n;
    }

    /** Reads what is left; its failures (a file shorter than its commit says) are its source's. */
    void drain() {
      try {
        in.transferTo(new OutputStream() {
          @Override
          public void write(int b) {
            keep((byte) b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            keep(b, off, len);
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    boolean startsWith(byte[] magic) {
      return passed >= first.length && Arrays.equals(first, magic);
    }

    boolean endsWith(byte[] magic) {
      if (passed < last.length) {
        return false;
      }
      for (int i = 0; i < last.length; i++) {
        if (last[(int) ((passed + i) % last.length)] != magic[i]) {
          return false;
        }
      }
      return true;
    }
  }
}
