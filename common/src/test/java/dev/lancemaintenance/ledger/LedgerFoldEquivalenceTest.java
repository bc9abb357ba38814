package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The compact fold ({@link LedgerState}: numbered elements, ranges in arrays, changes merged in a
 * stable order) against the fold it replaced ({@link ReferenceLedgerState}, maps of objects and a
 * sorted list of changes), on random ledgers: segments of random histories with their records
 * shuffled, Restore-like closes and opens of one element at one version, segments whose first
 * version is whole, compactions read back, and damaged segments. The same versions, ranges, open
 * elements, joins, compactions and refusals (same message) every time; only the order of what came
 * from the old fold's hash map (its open elements) may differ, and is compared as a set.
 */
class LedgerFoldEquivalenceTest {
  private static final String FINGERPRINT = "f1";
  private static final int TRIALS = 400;

  @Test
  void theCompactFoldFoldsRandomLedgersAsTheMapsDid() {
    int refusals = 0;
    int compactions = 0;
    int wholeFirst = 0;
    for (int seed = 0; seed < TRIALS; seed++) {
      Trial trial = new Trial(new Random(seed));
      trial.run();
      refusals += trial.refused ? 1 : 0;
      compactions += trial.compactions;
      wholeFirst += trial.wholeFirst;
    }
    assertThat(refusals).as("damaged ledgers exercised").isGreaterThan(TRIALS / 10);
    assertThat(compactions).as("compactions exercised").isGreaterThan(TRIALS);
    assertThat(wholeFirst).as("segments whose first version is whole exercised").isGreaterThan(TRIALS);
  }

  @Test
  void aDecodedSegmentHoldsOneInstancePerElement() {
    LedgerSegment segment = LedgerFilesTest.history(FINGERPRINT);
    LedgerSegment decoded = LedgerSegment.decode("s", segment.encode());
    assertThat(decoded).isEqualTo(segment);
    LedgerElement openedA = decoded.opens().get(0).element();
    LedgerElement closedA = decoded.closes().get(1).element();
    LedgerElement reopenedA = decoded.opens().get(4).element();
    assertThat(closedA).as("A's close and its open").isSameAs(openedA);
    assertThat(reopenedA).as("A's reopening and its first open").isSameAs(openedA);
  }

  @Test
  void segmentsEncodeToTheBytesOfAGrowingBuffer() {
    for (int seed = 0; seed < 50; seed++) {
      Random random = new Random(seed);
      History history = new History(random);
      for (int v = 0; v < 30; v++) {
        history.next();
      }
      boolean whole = random.nextBoolean();
      LedgerSegment segment = history.segment(0, history.versions.size(), whole, false);
      assertThat(segment.encode()).as("seed %d", seed).isEqualTo(referenceEncoding(segment));
      assertThat(LedgerSegment.decode("s", segment.encode())).isEqualTo(segment);
    }
  }

  /** One random ledger, folded both ways segment by segment. */
  private static final class Trial {
    private final Random random;
    private final History history;
    private LedgerState compact = new LedgerState(FINGERPRINT, DatasetRef.MAIN);
    private ReferenceLedgerState reference = new ReferenceLedgerState(FINGERPRINT, DatasetRef.MAIN);
    private boolean refused;
    private int compactions;
    private int wholeFirst;

    Trial(Random random) {
      this.random = random;
      this.history = new History(random);
    }

    void run() {
      int total = 20 + random.nextInt(60);
      for (int v = 0; v < total; v++) {
        history.next();
      }
      int from = 0;
      while (from < total && !refused) {
        int to = Math.min(total, from + 1 + random.nextInt(12));
        boolean whole = from > 0 && random.nextInt(3) == 0;
        LedgerSegment segment = history.segment(from, to, whole, true);
        if (random.nextInt(12) == 0) {
          segment = damaged(segment);
        }
        if (whole) {
          wholeFirst++;
          assertSameJoin(segment);
        }
        applyBoth(segment);
        from = to;
        if (!refused && random.nextInt(4) == 0) {
          compactBoth();
        }
      }
    }

    private void applyBoth(LedgerSegment segment) {
      Throwable byReference = catchThrowable(() -> reference.apply("s", segment));
      Throwable byCompact = catchThrowable(() -> compact.apply("s", segment));
      if (byReference != null || byCompact != null) {
        assertThat(byCompact).as("the compact fold refuses what the maps refused").isNotNull();
        assertThat(byReference).as("the maps refuse what the compact fold refused").isNotNull();
        assertThat(byCompact).isInstanceOf(byReference.getClass()).hasMessage(byReference.getMessage());
        refused = true;
        return;
      }
      assertSameFold();
    }

    private void assertSameFold() {
      assertThat(compact.endVersion()).isEqualTo(reference.endVersion());
      assertThat(compact.versions()).isEqualTo(reference.versions());
      assertThat(compact.openElements()).isEqualTo(reference.openElements());
      assertThat(new HashSet<>(reference.openElements())).isEqualTo(compact.openElements());
      List<ReferenceLedgerState.Range> expected = reference.ranges();
      List<LedgerState.Range> actual = compact.ranges();
      List<LedgerState.Range> expectedClosed =
          closedOf(expected.stream().map(r -> new LedgerState.Range(r.element(), r.from(), r.to())).toList());
      if (wholeFirst == 0) {
        assertThat(closedOf(actual)).as("closed ranges, in the order they closed").isEqualTo(expectedClosed);
      } else {
        // A join closes the old fold's open elements in its hash map's order: the same ranges, the same versions.
        assertThat(closedOf(actual)).as("closed ranges").containsExactlyInAnyOrderElementsOf(expectedClosed);
        assertThat(closedOf(actual).stream().map(LedgerState.Range::to).toList()).as("in the order they closed")
            .isEqualTo(expectedClosed.stream().map(LedgerState.Range::to).toList());
      }
      assertThat(new HashSet<>(actual)).isEqualTo(
          new HashSet<>(expected.stream().map(r -> new LedgerState.Range(r.element(), r.from(), r.to())).toList()));
      assertThat(actual).hasSameSizeAs(expected);
      List<LedgerState.Range> visited = new ArrayList<>();
      compact.forEachRange((element, from, to) -> visited.add(new LedgerState.Range(element, from, to)));
      assertThat(visited).isEqualTo(actual);
    }

    private void assertSameJoin(LedgerSegment wholeFirstSegment) {
      LedgerSegment byReference = reference.joined(wholeFirstSegment);
      LedgerSegment byCompact = compact.joined(wholeFirstSegment);
      assertThat(byCompact.versions()).isEqualTo(byReference.versions());
      assertThat(byCompact.opens()).isEqualTo(byReference.opens());
      int own = wholeFirstSegment.closes().size();
      assertThat(byCompact.closes().subList(0, own)).isEqualTo(byReference.closes().subList(0, own));
      assertThat(new HashSet<>(byCompact.closes())).isEqualTo(new HashSet<>(byReference.closes()));
      assertThat(byCompact.closes()).hasSameSizeAs(byReference.closes());
      assertThat(byCompact.firstVersionWhole()).isEqualTo(byReference.firstVersionWhole());
    }

    /** Both compact with the same listed versions; then both read the maps' compacted segment back. */
    private void compactBoth() {
      Set<Long> listed = new TreeSet<>();
      reference.versions().keySet().forEach(v -> {
        if (random.nextInt(3) > 0) {
          listed.add(v);
        }
      });
      LedgerSegment byReference = reference.compacted(listed);
      LedgerSegment byCompact = compact.compacted(listed);
      assertThat(byCompact.versions()).isEqualTo(byReference.versions());
      int fromClosed = byReference.closes().size();
      assertThat(byCompact.closes()).hasSameSizeAs(byReference.closes());
      if (wholeFirst == 0) {
        assertThat(byCompact.closes()).as("closes, in the order the ranges closed").isEqualTo(byReference.closes());
        assertThat(byCompact.opens().subList(0, fromClosed)).isEqualTo(byReference.opens().subList(0, fromClosed));
      } else {
        // The closed ranges in an order that came from a join (see assertSameFold): compared as pairs.
        assertThat(closedPairs(byCompact)).containsExactlyInAnyOrderElementsOf(closedPairs(byReference));
      }
      assertThat(new HashSet<>(byCompact.opens())).isEqualTo(new HashSet<>(byReference.opens()));
      assertThat(byCompact.opens()).hasSameSizeAs(byReference.opens());
      // What the next run reads: the compacted segment alone, decoded.
      LedgerSegment read = LedgerSegment.decode("c", byReference.encode());
      reference = new ReferenceLedgerState(FINGERPRINT, DatasetRef.MAIN);
      compact = new LedgerState(FINGERPRINT, DatasetRef.MAIN);
      applyBoth(read);
      compactions++;
    }

    /** One kind of damage a fold must refuse, or must fold the same way when it happens to be harmless. */
    private LedgerSegment damaged(LedgerSegment segment) {
      List<LedgerVersion> versions = new ArrayList<>(segment.versions());
      List<LedgerSegment.Open> opens = new ArrayList<>(segment.opens());
      List<LedgerSegment.Close> closes = new ArrayList<>(segment.closes());
      long first = versions.get(0).version();
      LedgerElement any = history.pool.get(random.nextInt(history.pool.size()));
      switch (random.nextInt(5)) {
        case 0 -> opens.add(new LedgerSegment.Open(any, first));
        case 1 -> closes.add(new LedgerSegment.Close(any, versions.get(versions.size() - 1).version()));
        case 2 -> opens.add(new LedgerSegment.Open(any, first + 1_000_000));
        case 3 -> versions.add(0, LedgerFilesTest.version(Math.max(0, compact.endVersion())));
        default -> {
          if (!opens.isEmpty()) {
            opens.add(opens.get(random.nextInt(opens.size())));
          }
        }
      }
      return new LedgerSegment(FINGERPRINT, DatasetRef.MAIN, versions, opens, closes, segment.firstVersionWhole()
          && closes.stream().noneMatch(close -> close.atVersion() == first));
    }
  }

  /** A random table history: per version, the elements it references. */
  static final class History {
    private final Random random;
    private final List<LedgerElement> pool = new ArrayList<>();
    private final List<Long> versions = new ArrayList<>();
    private final List<Set<LedgerElement>> references = new ArrayList<>();
    /** Per version, elements it closes and opens again (a Restore-like change within one version). */
    private final List<Set<LedgerElement>> reopened = new ArrayList<>();

    History(Random random) {
      this.random = random;
      FileKind[] kinds = {FileKind.DATA, FileKind.DELETION, FileKind.INDEX, FileKind.TRANSACTION};
      int keys = 3 + random.nextInt(25);
      for (int k = 0; k < keys; k++) {
        // The same key under two kinds or both flags is two elements: equality is all three.
        pool.add(new LedgerElement("data/k" + k + ".lance", kinds[random.nextInt(kinds.length)], random.nextInt(5) > 0));
        if (random.nextInt(6) == 0) {
          pool.add(new LedgerElement("data/k" + k + ".lance", FileKind.DATA, false));
        }
      }
    }

    int size() {
      return versions.size();
    }

    void next() {
      long version = versions.isEmpty() ? 1 + random.nextInt(3) : versions.get(versions.size() - 1) + 1 + random.nextInt(3);
      Set<LedgerElement> now = new LinkedHashSet<>(references.isEmpty() ? Set.of() : references.get(references.size() - 1));
      Set<LedgerElement> again = new LinkedHashSet<>();
      for (LedgerElement element : pool) {
        int roll = random.nextInt(10);
        if (roll == 0) {
          now.remove(element);
        } else if (roll < 3) {
          now.add(element);
        } else if (roll == 3 && now.contains(element) && !references.isEmpty()) {
          again.add(element);
        }
      }
      versions.add(version);
      references.add(now);
      reopened.add(again);
    }

    /**
     * The segment of versions {@code [from, to)}: changes against version {@code from - 1}, or,
     * when {@code whole} (or at the first version), everything its first version references.
     */
    LedgerSegment segment(int from, int to, boolean whole, boolean shuffled) {
      List<LedgerVersion> summarised = new ArrayList<>();
      List<LedgerSegment.Open> opens = new ArrayList<>();
      List<LedgerSegment.Close> closes = new ArrayList<>();
      for (int i = from; i < to; i++) {
        long version = versions.get(i);
        summarised.add(LedgerFilesTest.version(version));
        boolean everything = i == 0 || (whole && i == from);
        Set<LedgerElement> before = everything ? Set.of() : references.get(i - 1);
        for (LedgerElement element : references.get(i)) {
          if (!before.contains(element)) {
            opens.add(new LedgerSegment.Open(copyOf(element), version));
          } else if (reopened.get(i).contains(element)) {
            closes.add(new LedgerSegment.Close(copyOf(element), version));
            opens.add(new LedgerSegment.Open(copyOf(element), version));
          }
        }
        for (LedgerElement element : before) {
          if (!references.get(i).contains(element)) {
            closes.add(new LedgerSegment.Close(copyOf(element), version));
          }
        }
      }
      if (shuffled && random.nextBoolean()) {
        Collections.shuffle(opens, random);
        Collections.shuffle(closes, random);
      }
      return new LedgerSegment(FINGERPRINT, DatasetRef.MAIN, summarised, opens, closes, whole);
    }

    /** A new instance, as a decoded record is: equal, never the same. */
    private static LedgerElement copyOf(LedgerElement element) {
      return new LedgerElement(new String(element.key()), element.kind(), element.certain());
    }
  }

  /** A compacted segment's closed ranges: its first opens paired with its closes, in order. */
  private static List<LedgerState.Range> closedPairs(LedgerSegment compacted) {
    List<LedgerState.Range> pairs = new ArrayList<>();
    for (int i = 0; i < compacted.closes().size(); i++) {
      LedgerSegment.Open open = compacted.opens().get(i);
      assertThat(compacted.closes().get(i).element()).isEqualTo(open.element());
      pairs.add(new LedgerState.Range(open.element(), open.fromVersion(), compacted.closes().get(i).atVersion()));
    }
    return pairs;
  }

  private static List<LedgerState.Range> closedOf(List<LedgerState.Range> ranges) {
    return ranges.stream().filter(range -> range.to() != LedgerState.OPEN).toList();
  }

  /** A segment's bytes as the frame wrote them until stop 39: one growing buffer, copied to checksum and to return. */
  private static byte[] referenceEncoding(LedgerSegment segment) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write("LMLEDGER".getBytes(StandardCharsets.US_ASCII));
      out.writeInt(segment.firstVersionWhole() ? 2 : 1);
      out.writeUTF(segment.fingerprint());
      out.writeUTF(segment.dataset().dir());
      out.writeInt(segment.versions().size());
      for (LedgerVersion version : segment.versions()) {
        version.writeTo(out);
      }
      out.writeInt(segment.opens().size());
      for (LedgerSegment.Open open : segment.opens()) {
        LedgerSegment.writeElement(out, open.element());
        out.writeLong(open.fromVersion());
      }
      out.writeInt(segment.closes().size());
      for (LedgerSegment.Close close : segment.closes()) {
        LedgerSegment.writeElement(out, close.element());
        out.writeLong(close.atVersion());
      }
      out.flush();
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeLong(crc.getValue());
      out.write("LMLEDEND".getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return bytes.toByteArray();
  }
}
