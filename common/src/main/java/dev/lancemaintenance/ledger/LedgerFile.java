package dev.lancemaintenance.ledger;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;
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

  /** Decodes a file of this kind; {@code name} is for the message. */
  <T> T decode(String name, byte[] content, Reader<T> body) {
    if (content.length < magic.length + TRAILER
        || !Arrays.equals(content, 0, magic.length, magic, 0, magic.length)
        || !Arrays.equals(content, content.length - endMagic.length, content.length, endMagic, 0, endMagic.length)) {
      throw new LedgerFormatException(name, "not a complete " + kind + " (magic missing: cut short or not ours)");
    }
    int bodyLength = content.length - TRAILER;
    CRC32C crc = new CRC32C();
    crc.update(content, 0, bodyLength);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(content))) {
      in.skipNBytes(magic.length);
      int found = in.readInt();
      if (found != format) {
        throw new LedgerFormatException(name, kind + " format " + found + ", this release reads " + format);
      }
      T decoded = body.read(in);
      int read = content.length - in.available();
      if (read != bodyLength) {
        throw new LedgerFormatException(name, "records end at byte " + read + ", the checksum at " + bodyLength);
      }
      if (in.readLong() != crc.getValue()) {
        throw new LedgerFormatException(name, "checksum mismatch");
      }
      return decoded;
    } catch (IOException | IllegalArgumentException e) {
      throw new LedgerFormatException(name, "records do not decode: " + e.getMessage());
    }
  }
}
