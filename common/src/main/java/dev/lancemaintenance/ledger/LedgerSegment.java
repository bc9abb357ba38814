package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.FileKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One immutable ledger file: the versions it summarises and the changes of their references.
 *
 * <p>An element that a summarised version references and its predecessor did not is
 * <em>opened</em> at that version; one its predecessor referenced and it does not is
 * <em>closed</em> at it. Folding the segments of a commit in order ({@link LedgerState}) gives, for
 * every element, the half-open version ranges {@code [from, to)} in which it was referenced. A
 * compacted segment carries the same records for the whole ledger at once.
 *
 * <p>Encoding: a magic and format number, the table fingerprint and dataset, the three record lists,
 * then a CRC-32C of everything before it and an end magic. A file cut short, or changed, never
 * decodes ({@link LedgerFormatException}).
 */
public record LedgerSegment(
    String fingerprint, String datasetDir, List<LedgerVersion> versions, List<Open> opens, List<Close> closes) {
  private static final byte[] MAGIC = "LMLEDGER".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END_MAGIC = "LMLEDEND".getBytes(StandardCharsets.US_ASCII);
  private static final int FORMAT = 1;
  private static final int TRAILER = Long.BYTES + 8;

  public LedgerSegment {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(datasetDir, "datasetDir");
    versions = List.copyOf(versions);
    opens = List.copyOf(opens);
    closes = List.copyOf(closes);
  }

  /** An element starts being referenced at {@code fromVersion}. */
  public record Open(LedgerElement element, long fromVersion) implements Serializable {
    public Open {
      Objects.requireNonNull(element, "element");
    }
  }

  /** An element referenced until just before {@code atVersion} is not referenced by it. */
  public record Close(LedgerElement element, long atVersion) implements Serializable {
    public Close {
      Objects.requireNonNull(element, "element");
    }
  }

  /** The file's bytes. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(MAGIC);
      out.writeInt(FORMAT);
      out.writeUTF(fingerprint);
      out.writeUTF(datasetDir);
      out.writeInt(versions.size());
      for (LedgerVersion version : versions) {
        out.writeLong(version.version());
        out.writeUTF(version.manifestPath());
        out.writeLong(version.size());
        out.writeLong(version.modificationTimeMillis());
        out.writeLong(version.timestampNanos());
      }
      out.writeInt(opens.size());
      for (Open open : opens) {
        writeElement(out, open.element());
        out.writeLong(open.fromVersion());
      }
      out.writeInt(closes.size());
      for (Close close : closes) {
        writeElement(out, close.element());
        out.writeLong(close.atVersion());
      }
      out.flush();
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeLong(crc.getValue());
      out.write(END_MAGIC);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /** Decodes a segment file; {@code name} is for the message. */
  public static LedgerSegment decode(String name, byte[] content) {
    if (content.length < MAGIC.length + TRAILER
        || !Arrays.equals(content, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
        || !Arrays.equals(content, content.length - END_MAGIC.length, content.length, END_MAGIC, 0, END_MAGIC.length)) {
      throw new LedgerFormatException(name, "not a complete ledger segment (magic missing: cut short or not ours)");
    }
    int bodyLength = content.length - TRAILER;
    CRC32C crc = new CRC32C();
    crc.update(content, 0, bodyLength);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(content))) {
      in.skipNBytes(MAGIC.length);
      int format = in.readInt();
      if (format != FORMAT) {
        throw new LedgerFormatException(name, "segment format " + format + ", this release reads " + FORMAT);
      }
      String fingerprint = in.readUTF();
      String datasetDir = in.readUTF();
      List<LedgerVersion> versions = new ArrayList<>();
      for (int i = count(in, name); i > 0; i--) {
        versions.add(new LedgerVersion(in.readLong(), in.readUTF(), in.readLong(), in.readLong(), in.readLong()));
      }
      List<Open> opens = new ArrayList<>();
      for (int i = count(in, name); i > 0; i--) {
        opens.add(new Open(readElement(in, name), in.readLong()));
      }
      List<Close> closes = new ArrayList<>();
      for (int i = count(in, name); i > 0; i--) {
        closes.add(new Close(readElement(in, name), in.readLong()));
      }
      int read = content.length - in.available();
      if (read != bodyLength) {
        throw new LedgerFormatException(name, "records end at byte " + read + ", the checksum at " + bodyLength);
      }
      if (in.readLong() != crc.getValue()) {
        throw new LedgerFormatException(name, "checksum mismatch");
      }
      return new LedgerSegment(fingerprint, datasetDir, versions, opens, closes);
    } catch (IOException | IllegalArgumentException e) {
      throw new LedgerFormatException(name, "records do not decode: " + e.getMessage());
    }
  }

  static int count(DataInputStream in, String name) throws IOException {
    int count = in.readInt();
    if (count < 0 || count > in.available()) {
      throw new LedgerFormatException(name, "impossible record count " + count);
    }
    return count;
  }

  static void writeElement(DataOutputStream out, LedgerElement element) throws IOException {
    out.writeUTF(element.key());
    out.writeUTF(element.kind().name());
    out.writeBoolean(element.certain());
  }

  static LedgerElement readElement(DataInputStream in, String name) throws IOException {
    String key = in.readUTF();
    String kind = in.readUTF();
    boolean certain = in.readBoolean();
    try {
      return new LedgerElement(key, FileKind.valueOf(kind), certain);
    } catch (IllegalArgumentException unknown) {
      throw new LedgerFormatException(name, "unknown file kind " + kind);
    }
  }
}
