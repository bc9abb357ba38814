package dev.lancemaintenance.ledger;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

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

  /**
   * The file's bytes, written twice: once to count them, then into an array of exactly the file's
   * length, the checksum taken over it in place. A segment of a large ledger is 100+ MB; a growing
   * buffer would hold up to twice that, plus a copy for the checksum and one to return, which on
   * {@code huge-steady}'s 136 MB segment did not fit beside the fold in 512 MB (docs/ledger.md,
   * section 7). The records are written the same way both times, so the bytes are the same.
   */
  byte[] encode(Body body) {
    Counting counted = new Counting();
    writeBody(counted, body);
    if (counted.count > Integer.MAX_VALUE - 8 - TRAILER) {
      throw new IllegalStateException("a " + kind + " of " + counted.count + " bytes does not fit one array");
    }
    int bodyLength = (int) counted.count;
    byte[] file = new byte[bodyLength + TRAILER];
    Filling filled = new Filling(file, bodyLength);
    writeBody(filled, body);
    if (filled.at != bodyLength) {
      throw new IllegalStateException("the " + kind + "'s records wrote " + filled.at + " bytes, then " + bodyLength);
    }
    CRC32C crc = new CRC32C();
    crc.update(file, 0, bodyLength);
    ByteBuffer.wrap(file, bodyLength, Long.BYTES).putLong(crc.getValue());
    System.arraycopy(endMagic, 0, file, bodyLength + Long.BYTES, endMagic.length);
    return file;
  }

  private void writeBody(OutputStream sink, Body body) {
    try (DataOutputStream out = new DataOutputStream(sink)) {
      out.write(magic);
      out.writeInt(format);
      body.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // neither sink fails
    }
  }

  /** Counts what is written, keeping nothing. */
  private static final class Counting extends OutputStream {
    private long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }

  /** Writes into {@code file}'s first {@code limit} bytes. */
  private static final class Filling extends OutputStream {
    private final byte[] file;
    private final int limit;
    private int at;

    Filling(byte[] file, int limit) {
      this.file = file;
      this.limit = limit;
    }

    @Override
    public void write(int b) {
      if (at >= limit) {
        throw new IllegalStateException("the records grew between the two passes");
      }
      file[at++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (len > limit - at) {
        throw new IllegalStateException("the records grew between the two passes");
      }
      System.arraycopy(b, off, file, at, len);
      at += len;
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
