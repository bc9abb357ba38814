package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The ledger's files name their dataset by its directory ({@code ""}, {@code tree/<branch>}), as
 * the release before {@link DatasetRef} wrote them: the files below are built byte by byte from the
 * format's description, not by the classes under test, so a ledger or an expiry record written
 * before still reads, and a file written now reads in that release.
 */
class LedgerDatasetEncodingTest {
  private static final DatasetRef B1 = DatasetRef.branch("b1");
  private static final LedgerElement A = new LedgerElement("tree/b1/data/a.lance", FileKind.DATA, true);

  @Test
  void aBranchSegmentIsWrittenAndReadAsItsDirectory() throws IOException {
    byte[] written = framed("LMLEDGER", "LMLEDEND", out -> {
      out.writeUTF("f1");
      out.writeUTF("tree/b1");
      out.writeInt(1);
      out.writeLong(3);
      out.writeUTF("tree/b1/_versions/3.manifest");
      out.writeLong(103);
      out.writeLong(3_000);
      out.writeLong(21_000_000L);
      out.writeInt(1);
      element(out);
      out.writeLong(3);
      out.writeInt(0);
    });
    LedgerSegment segment = new LedgerSegment("f1", B1,
        List.of(new LedgerVersion(3, "tree/b1/_versions/3.manifest", 103, 3_000, 21_000_000L)),
        List.of(new LedgerSegment.Open(A, 3)), List.of());

    assertThat(LedgerSegment.decode("seg", written)).isEqualTo(segment);
    assertThat(segment.encode()).isEqualTo(written);
  }

  @Test
  void aBranchExpiryRecordIsWrittenAndReadAsItsDirectory() throws IOException {
    byte[] written = framed("LMEXPIRE", "LMEXPEND", out -> {
      out.writeUTF("f1");
      out.writeUTF("tree/b1");
      out.writeInt(1);
      out.writeLong(2);
      out.writeUTF("tree/b1/_versions/2.manifest");
      out.writeInt(1);
      element(out);
    });
    ExpiryRecord record = new ExpiryRecord("f1", B1,
        List.of(new ExpiryRecord.ExpiredVersion(2, "tree/b1/_versions/2.manifest")), List.of(A));

    assertThat(ExpiryRecord.decode("rec", written)).isEqualTo(record);
    assertThat(record.encode()).isEqualTo(written);
  }

  @Test
  void aCommitWritesTheDatasetLineAsItsDirectory() {
    String body = "format=1\ngeneration=7\nfingerprint=f1\ndataset=tree/b1\nend_version=42\nsegment=seg-1.seg 10 1f\n";
    byte[] written = (body + "checksum=" + Long.toHexString(LedgerCommit.crc(body.getBytes(StandardCharsets.UTF_8)))
        + "\nend\n").getBytes(StandardCharsets.UTF_8);
    LedgerCommit commit = new LedgerCommit(7, "f1", B1, 42, List.of(new LedgerCommit.SegmentRef("seg-1.seg", 10, 0x1f)));

    assertThat(LedgerCommit.decode("commit.7", written)).isEqualTo(commit);
    assertThat(new String(commit.encode(), StandardCharsets.UTF_8)).isEqualTo(new String(written, StandardCharsets.UTF_8));
  }

  @Test
  void theFingerprintAndDirectoryOfALedgerAreUnchanged() {
    // SHA-256 of "file:/t\n" + the dataset's directory, first 16 bytes, as every release computes it.
    assertThat(Ledger.fingerprint("file:/t", DatasetRef.MAIN)).isEqualTo("0d7060082a7fff91d4e8d44f9f63c3a5");
    assertThat(Ledger.fingerprint("file:/t", B1)).isEqualTo("3e1cf32fc997209b8efbd13063a71208");
    assertThat(Ledger.dirOf(DatasetRef.MAIN)).isEqualTo("_maintenance/ledger");
    assertThat(Ledger.dirOf(B1)).isEqualTo("_maintenance/ledger/tree/b1");
  }

  @Test
  void aFileNamingNoDatasetDirectoryIsAFormatErrorNamingTheFile() throws IOException {
    byte[] written = framed("LMEXPIRE", "LMEXPEND", out -> {
      out.writeUTF("f1");
      out.writeUTF("data");
      out.writeInt(0);
      out.writeInt(0);
    });

    assertThatThrownBy(() -> ExpiryRecord.decode("expired-x.rec", written))
        .isInstanceOf(LedgerFormatException.class).hasMessageContaining("expired-x.rec");
  }

  private static void element(DataOutputStream out) throws IOException {
    out.writeUTF("tree/b1/data/a.lance");
    out.writeUTF("DATA");
    out.writeBoolean(true);
  }

  /** A magic, format 1, the records, a CRC-32C of all before it and an end magic. */
  private static byte[] framed(String magic, String endMagic, LedgerFile.Body records) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(magic.getBytes(StandardCharsets.US_ASCII));
    out.writeInt(1);
    records.write(out);
    out.flush();
    CRC32C crc = new CRC32C();
    crc.update(bytes.toByteArray());
    out.writeLong(crc.getValue());
    out.write(endMagic.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return bytes.toByteArray();
  }
}
