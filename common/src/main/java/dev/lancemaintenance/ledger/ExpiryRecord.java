package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@code expire_versions} removed: the versions whose manifests it deleted and every element
 * that only they referenced, written before the first of those manifests goes (docs/ledger.md,
 * section 10). A later sweep marks these elements as a cleanup marks an expired version's files
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
public record ExpiryRecord(String fingerprint, DatasetRef dataset, List<ExpiredVersion> versions, List<LedgerElement> elements) {
  private static final LedgerFile FILE = new LedgerFile("expiry record", "LMEXPIRE", "LMEXPEND", 1);

  /** One expired version: its number and its manifest's table-relative path. */
  public record ExpiredVersion(long version, String manifestPath) {
    public ExpiredVersion {
      Objects.requireNonNull(manifestPath, "manifestPath");
    }
  }

  public ExpiryRecord {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(dataset, "dataset");
    versions = List.copyOf(versions);
    elements = List.copyOf(elements);
  }

  /** The file's bytes. */
  public byte[] encode() {
    return FILE.encode(out -> {
      out.writeUTF(fingerprint);
      out.writeUTF(dataset.dir());
      out.writeInt(versions.size());
      for (ExpiredVersion version : versions) {
        out.writeLong(version.version());
        out.writeUTF(version.manifestPath());
      }
      out.writeInt(elements.size());
      for (LedgerElement element : elements) {
        LedgerSegment.writeElement(out, element);
      }
    });
  }

  /** Decodes a record file; {@code name} is for the message. */
  public static ExpiryRecord decode(String name, byte[] content) {
    return FILE.decode(name, content, in -> {
      String fingerprint = in.readUTF();
      DatasetRef dataset = new DatasetRef(in.readUTF());
      List<ExpiredVersion> versions = new ArrayList<>();
      for (int i = LedgerSegment.count(in, name); i > 0; i--) {
        versions.add(new ExpiredVersion(in.readLong(), in.readUTF()));
      }
      List<LedgerElement> elements = new ArrayList<>();
      for (int i = LedgerSegment.count(in, name); i > 0; i--) {
        elements.add(LedgerSegment.readElement(in, name));
      }
      return new ExpiryRecord(fingerprint, dataset, versions, elements);
    });
  }
}
