package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The two ledger file formats and the fold: round trips, damage always noticed, compaction exact. */
class LedgerFilesTest {
  static final LedgerElement A = new LedgerElement("data/a.lance", FileKind.DATA, true);
  static final LedgerElement B = new LedgerElement("data/b.lance", FileKind.DATA, true);
  static final LedgerElement TX = new LedgerElement("_transactions/1-x.txn", FileKind.TRANSACTION, true);
  static final LedgerElement IDX = new LedgerElement("_indices/u1", FileKind.INDEX, false);

  static LedgerVersion version(long v) {
    return new LedgerVersion(v, "_versions/" + v + ".manifest", 100 + v, 1_000 * v, 7_000_000L * v);
  }

  /** v1 {A, TX}, v2 {A, B}, v3 {B, IDX}, v4 {A, B, IDX} (A restored). */
  static LedgerSegment history(String fingerprint) {
    return new LedgerSegment(fingerprint, DatasetRef.MAIN,
        List.of(version(1), version(2), version(3), version(4)),
        List.of(new LedgerSegment.Open(A, 1), new LedgerSegment.Open(TX, 1), new LedgerSegment.Open(B, 2),
            new LedgerSegment.Open(IDX, 3), new LedgerSegment.Open(A, 4)),
        List.of(new LedgerSegment.Close(TX, 2), new LedgerSegment.Close(A, 3)));
  }

  @Test
  void aSegmentReadsBackAsWritten() {
    LedgerSegment segment = history("f1");
    assertThat(LedgerSegment.decode("s", segment.encode())).isEqualTo(segment);
  }

  @Test
  void aSegmentStreamedToTheStoreIsTheEncodedOneAndItsReferenceMatchesItsBytes() throws Exception {
    // Larger than the frame's write buffer, so the stream is written in several pieces.
    List<LedgerSegment.Open> opens = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      opens.add(new LedgerSegment.Open(new LedgerElement("data/" + i + ".lance", FileKind.DATA, true), 1 + i % 4));
    }
    LedgerSegment segment = new LedgerSegment("f1", DatasetRef.MAIN,
        List.of(version(1), version(2), version(3), version(4)), opens, List.of(), true);
    boolean[] closed = {false};
    ByteArrayOutputStream sink = new ByteArrayOutputStream() {
      @Override
      public void close() {
        closed[0] = true;
      }
    };

    LedgerCommit.SegmentRef reference = segment.writeTo("s-1.seg", sink);

    byte[] streamed = sink.toByteArray();
    assertThat(streamed.length).isGreaterThan(64 * 1024);
    assertThat(streamed).isEqualTo(segment.encode());
    assertThat(reference.matches(streamed)).isTrue();
    assertThat(reference.length()).isEqualTo(streamed.length);
    assertThat(LedgerSegment.decode("s", streamed)).isEqualTo(segment);
    assertThat(closed[0]).as("the caller closes its stream").isFalse();
  }

  @Test
  void aSegmentCutShortAnywhereNeverDecodes() {
    byte[] bytes = history("f1").encode();
    for (int length = 0; length < bytes.length; length++) {
      byte[] cut = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> LedgerSegment.decode("s", cut)).as("cut to %d bytes", length)
          .isInstanceOf(LedgerFormatException.class).hasMessageContaining("s");
    }
  }

  @Test
  void aSegmentWithAnyByteChangedNeverDecodes() {
    byte[] bytes = history("f1").encode();
    for (int at = 0; at < bytes.length; at++) {
      byte[] changed = bytes.clone();
      changed[at] ^= 0x10;
      assertThatThrownBy(() -> LedgerSegment.decode("s", changed)).as("byte %d changed", at)
          .isInstanceOf(LedgerFormatException.class);
    }
  }

  /**
   * A segment whose frame is whole but whose checksum does not match its records is refused as
   * such, and one whose end magic changed as not complete, whatever size its reads come in: a
   * stream's decode tells them apart by the file's last bytes, kept as they pass.
   */
  @Test
  void aChecksumThatDiffersAndAnEndThatDiffersAreToldApartWhateverTheReadsSize() {
    byte[] bytes = history("f1").encode();
    byte[] checksumChanged = bytes.clone();
    checksumChanged[bytes.length - 12] ^= 0x10; // in the checksum, before the eight bytes of the end magic
    byte[] endChanged = bytes.clone();
    endChanged[bytes.length - 8] ^= 0x10;
    for (int perRead : new int[] {1, 7, 8, 9, bytes.length}) {
      assertThatThrownBy(() -> LedgerSegment.decode("s", trickling(checksumChanged, perRead), bytes.length, e -> e))
          .as("reads of %d bytes", perRead).isInstanceOf(LedgerFormatException.class).hasMessageContaining("checksum mismatch");
      assertThatThrownBy(() -> LedgerSegment.decode("s", trickling(endChanged, perRead), bytes.length, e -> e))
          .as("reads of %d bytes", perRead).isInstanceOf(LedgerFormatException.class).hasMessageContaining("not a complete");
    }
  }

  /** {@code bytes}, at most {@code perRead} of them a read. */
  private static InputStream trickling(byte[] bytes, int perRead) {
    return new FilterInputStream(new ByteArrayInputStream(bytes)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return super.read(b, off, Math.min(len, perRead));
      }
    };
  }

  @Test
  void aCommitReadsBackAndNeverParsesCutShortOrChanged() {
    LedgerCommit commit = new LedgerCommit(7, "f1", DatasetRef.branch("b1"), 42,
        List.of(new LedgerCommit.SegmentRef("seg-1.seg", 10, 0xfffffffeL), new LedgerCommit.SegmentRef("seg-2.seg", 3, 1)));
    byte[] bytes = commit.encode();
    assertThat(LedgerCommit.decode("c", bytes)).isEqualTo(commit);
    for (int length = 0; length < bytes.length; length++) {
      byte[] cut = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> LedgerCommit.decode("c", cut)).as("cut to %d", length).isInstanceOf(LedgerFormatException.class);
    }
    for (int at = 0; at < bytes.length - 5; at++) {
      byte[] changed = bytes.clone();
      changed[at] ^= 0x01;
      assertThatThrownBy(() -> LedgerCommit.decode("c", changed)).as("byte %d changed", at).isInstanceOf(LedgerFormatException.class);
    }
  }

  @Test
  void theFoldGivesEachElementItsRangesARestoredOneTwo() {
    LedgerState state = new LedgerState("f1", DatasetRef.MAIN);
    state.apply("s", history("f1"));
    assertThat(state.ranges()).containsExactlyInAnyOrder(
        new LedgerState.Range(A, 1, 3), new LedgerState.Range(A, 4, LedgerState.OPEN),
        new LedgerState.Range(TX, 1, 2), new LedgerState.Range(B, 2, LedgerState.OPEN),
        new LedgerState.Range(IDX, 3, LedgerState.OPEN));
    assertThat(state.openElements()).containsExactlyInAnyOrder(A, B, IDX);
    assertThat(state.endVersion()).isEqualTo(4);
  }

  @Test
  void theFoldRefusesSegmentsThatDoNotContinueIt() {
    LedgerState state = new LedgerState("f1", DatasetRef.MAIN);
    state.apply("s1", history("f1"));
    assertThatThrownBy(() -> state.apply("s2", new LedgerSegment("f1", DatasetRef.MAIN, List.of(version(4)), List.of(), List.of())))
        .isInstanceOf(LedgerFormatException.class).hasMessageContaining("does not follow");
    assertThatThrownBy(() -> state.apply("s3", new LedgerSegment("f1", DatasetRef.MAIN, List.of(version(5)), List.of(),
        List.of(new LedgerSegment.Close(TX, 5))))).isInstanceOf(LedgerFormatException.class).hasMessageContaining("not open");
    assertThatThrownBy(() -> new LedgerState("f1", DatasetRef.MAIN).apply("s4", history("other")))
        .isInstanceOf(LedgerFormatException.class).hasMessageContaining("another table");
    assertThatThrownBy(() -> new LedgerState("f1", DatasetRef.MAIN).apply("s5", new LedgerSegment("f1", DatasetRef.MAIN, List.of(version(1)),
        List.of(new LedgerSegment.Open(A, 2)), List.of()))).isInstanceOf(LedgerFormatException.class).hasMessageContaining("no segment summarises");
  }

  @Test
  void compactionKeepsWhatEveryListedVersionReferences() {
    LedgerState state = new LedgerState("f1", DatasetRef.MAIN);
    state.apply("s", history("f1"));
    for (Set<Long> listed : List.of(Set.of(1L, 2L, 3L, 4L), Set.of(2L, 4L), Set.of(4L), Set.of(1L, 3L), Set.<Long>of())) {
      LedgerState compacted = new LedgerState("f1", DatasetRef.MAIN);
      compacted.apply("c", state.compacted(listed));
      for (long v : new TreeSet<>(listed)) {
        for (LedgerElement element : List.of(A, B, TX, IDX)) {
          assertThat(present(compacted, element, v)).as("%s at v%d after compaction for %s", element.key(), v, listed)
              .isEqualTo(present(state, element, v));
        }
      }
      assertThat(compacted.openElements()).as("the newest version's references, base of the next summary")
          .isEqualTo(state.openElements());
      assertThat(compacted.versions().keySet()).as("versions kept").containsAll(listed).contains(4L);
    }
  }

  static boolean present(LedgerState state, LedgerElement element, long version) {
    return state.ranges().stream().anyMatch(r -> r.element().equals(element) && r.from() <= version && version < r.to());
  }
}
