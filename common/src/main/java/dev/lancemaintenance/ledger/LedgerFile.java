package dev.lancemaintenance.ledger;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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

  byte[] encode(Body body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(magic);
      out.writeInt(format);
      body.write(out);
      out.flush();
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeLong(crc.getValue());
      out.write(endMagic);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
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
