package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An expiry record reads back as written; cut short or with any byte changed it never decodes. */
class ExpiryRecordTest {
  private static final ExpiryRecord RECORD = new ExpiryRecord("f1", DatasetRef.MAIN, List.of(
          new ExpiryRecord.ExpiredVersion(1, "_versions/1.manifest"), new ExpiryRecord.ExpiredVersion(2, "_versions/2.manifest")),
      List.of(new LedgerElement("data/a.lance", FileKind.DATA, true), new LedgerElement("_transactions/0-x.txn", FileKind.TRANSACTION, true)));

  @Test
  void aRecordReadsBackAsWritten() {
    assertThat(ExpiryRecord.decode("r", RECORD.encode())).isEqualTo(RECORD);
  }

  @Test
  void aRecordCutShortAnywhereNeverDecodes() {
    byte[] bytes = RECORD.encode();
    for (int length = 0; length < bytes.length; length++) {
      byte[] cut = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> ExpiryRecord.decode("r", cut)).as("cut to %d bytes", length)
          .isInstanceOf(LedgerFormatException.class).hasMessageContaining("r");
    }
  }

  @Test
  void aRecordWithAnyByteChangedNeverDecodes() {
    byte[] bytes = RECORD.encode();
    for (int at = 0; at < bytes.length; at++) {
      byte[] changed = bytes.clone();
      changed[at] ^= 0x10;
      assertThatThrownBy(() -> ExpiryRecord.decode("r", changed)).as("byte %d changed", at)
          .isInstanceOf(LedgerFormatException.class);
    }
  }

  @Test
  void aLedgerSegmentIsNoRecord() {
    LedgerSegment segment = new LedgerSegment("f1", DatasetRef.MAIN, List.of(), List.of(), List.of());
    assertThatThrownBy(() -> ExpiryRecord.decode("s", segment.encode())).isInstanceOf(LedgerFormatException.class);
  }
}
