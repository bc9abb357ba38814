package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
    String fingerprint, DatasetRef dataset, List<LedgerVersion> versions, List<Open> opens, List<Close> closes) {
  private static final LedgerFile FILE = new LedgerFile("ledger segment", "LMLEDGER", "LMLEDEND", 1);

  public LedgerSegment {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(dataset, "dataset");
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
    return FILE.encode(out -> {
      out.writeUTF(fingerprint);
      out.writeUTF(dataset.dir());
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
    });
  }

  /** Decodes a segment file; {@code name} is for the message. */
  public static LedgerSegment decode(String name, byte[] content) {
    return FILE.decode(name, content, in -> {
      String fingerprint = in.readUTF();
      DatasetRef dataset = new DatasetRef(in.readUTF());
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
      return new LedgerSegment(fingerprint, dataset, versions, opens, closes);
    });
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
