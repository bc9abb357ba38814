package dev.lancemaintenance.ledger;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * What {@code expire_versions} removed: the versions whose manifests it deleted and every element
 * that only they referenced, written before the first of those manifests goes (docs/ledger.md,
 * section 9). A later sweep marks these elements as a cleanup marks an expired version's files
 * ("verified"), which is what it would have seen had the manifests still been there; kept wins, so
 * an element a retained version references stays whatever a record says.
 *
 * <p>Immutable, one file per expired run of versions ({@code expired-<first>-<last>-<uuid>.rec},
 * beside the ledger's segments), created with put-if-absent and read back before any manifest it
 * describes is deleted. Encoding as a {@link LedgerSegment}: a magic and format number, the table
 * fingerprint and dataset, the two lists, a CRC-32C and an end magic; a file cut short, changed or
 * from another table never decodes or is not used, and its files are then only unverified, kept by
 * the seven-day rule: a damaged record can keep a file too many, never delete one.
 *
 * @param versions the expired versions (number and manifest path)
 * @param elements what only those versions referenced, as the mark stage keys it
 */
public record ExpiryRecord(String fingerprint, String datasetDir, List<ExpiredVersion> versions, List<LedgerElement> elements) {
  private static final byte[] MAGIC = "LMEXPIRE".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END_MAGIC = "LMEXPEND".getBytes(StandardCharsets.US_ASCII);
  private static final int FORMAT = 1;
  private static final int TRAILER = Long.BYTES + 8;

  /** One expired version: its number and its manifest's table-relative path. */
  public record ExpiredVersion(long version, String manifestPath) {
    public ExpiredVersion {
      Objects.requireNonNull(manifestPath, "manifestPath");
    }
  }

  public ExpiryRecord {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(datasetDir, "datasetDir");
    versions = List.copyOf(versions);
    elements = List.copyOf(elements);
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
      for (ExpiredVersion version : versions) {
        out.writeLong(version.version());
        out.writeUTF(version.manifestPath());
      }
      out.writeInt(elements.size());
      for (LedgerElement element : elements) {
        LedgerSegment.writeElement(out, element);
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

  /** Decodes a record file; {@code name} is for the message. */
  public static ExpiryRecord decode(String name, byte[] content) {
    if (content.length < MAGIC.length + TRAILER
        || !Arrays.equals(content, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
        || !Arrays.equals(content, content.length - END_MAGIC.length, content.length, END_MAGIC, 0, END_MAGIC.length)) {
      throw new LedgerFormatException(name, "not a complete expiry record (magic missing: cut short or not ours)");
    }
    int bodyLength = content.length - TRAILER;
    CRC32C crc = new CRC32C();
    crc.update(content, 0, bodyLength);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(content))) {
      in.skipNBytes(MAGIC.length);
      int format = in.readInt();
      if (format != FORMAT) {
        throw new LedgerFormatException(name, "expiry record format " + format + ", this release reads " + FORMAT);
      }
      String fingerprint = in.readUTF();
      String datasetDir = in.readUTF();
      List<ExpiredVersion> versions = new ArrayList<>();
      for (int i = LedgerSegment.count(in, name); i > 0; i--) {
        versions.add(new ExpiredVersion(in.readLong(), in.readUTF()));
      }
      List<LedgerElement> elements = new ArrayList<>();
      for (int i = LedgerSegment.count(in, name); i > 0; i--) {
        elements.add(LedgerSegment.readElement(in, name));
      }
      int read = content.length - in.available();
      if (read != bodyLength) {
        throw new LedgerFormatException(name, "records end at byte " + read + ", the checksum at " + bodyLength);
      }
      if (in.readLong() != crc.getValue()) {
        throw new LedgerFormatException(name, "checksum mismatch");
      }
      return new ExpiryRecord(fingerprint, datasetDir, versions, elements);
    } catch (IOException | IllegalArgumentException e) {
      throw new LedgerFormatException(name, "records do not decode: " + e.getMessage());
    }
  }
}
