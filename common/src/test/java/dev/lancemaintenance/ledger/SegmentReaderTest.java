package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.StorageInputStream;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.EOFException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment read as a stream ({@link SegmentReader}) against the read it replaced, the whole file in
 * one array checked against its commit, then decoded (kept here as the model, {@link #readWhole}):
 * the same segment from reads of any size, the same refusal with the same message for every file
 * cut short, grown or changed, and a refused segment leaves the fold as if it had never been read.
 */
class SegmentReaderTest {
  private static final String COMMIT = "_maintenance/ledger/commit.0000000000000000001";
  private static final int[] CHUNKS = {1, 7, 64 * 1024, StorageInputStream.CHUNK_BYTES};

  @TempDir java.nio.file.Path dir;
  /** A local disk, for the ledger's own read. */
  TableStorage disk;
  /** Files in memory, for reads of a byte at a time of thousands of damaged files. */
  final Map<String, byte[]> files = new HashMap<>();
  final TableStorage storage = (TableStorage) Proxy.newProxyInstance(getClass().getClassLoader(),
      new Class<?>[] {TableStorage.class}, (proxy, method, args) -> switch (method.getName()) {
        case "write" -> {
          files.put((String) args[0], ((byte[]) args[1]).clone());
          yield null;
        }
        case "read" -> {
          byte[] file = files.get((String) args[0]);
          long offset = (Long) args[1];
          int length = (Integer) args[2];
          if (offset + length > file.length) {
            throw new StorageException("read", (String) args[0], new EOFException("the file ends before byte " + (offset + length)));
          }
          yield Arrays.copyOfRange(file, (int) offset, (int) offset + length);
        }
        default -> throw new UnsupportedOperationException(method.getName());
      });

  @BeforeEach
  void openDisk() {
    disk = new HadoopTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults());
  }

  @AfterEach
  void closeDisk() {
    disk.close();
  }

  @Test
  void aSegmentReadInRangesOfAnySizeIsTheOneDecodedFromItsBytes() {
    List<LedgerSegment> segments = new ArrayList<>();
    for (int seed = 0; seed < 40; seed++) {
      Random random = new Random(seed);
      LedgerFoldEquivalenceTest.History history = history(random, 5 + random.nextInt(40));
      segments.add(history.segment(0, history.size(), random.nextBoolean(), true));
    }
    segments.add(manyOpens(20_000)); // several 64 KiB ranges
    for (LedgerSegment segment : segments) {
      byte[] bytes = segment.encode();
      LedgerCommit.SegmentRef ref = store("seg.seg", bytes);
      LedgerSegment fromBytes = LedgerSegment.decode("seg.seg", bytes);
      for (int chunk : CHUNKS) {
        assertThat(SegmentReader.decode(storage, "seg.seg", ref, COMMIT, new LedgerElements()::canonical, chunk))
            .as("read in ranges of %d bytes", chunk).isEqualTo(fromBytes).isEqualTo(segment);
      }
    }
  }

  @Test
  void everyFileCutGrownOrChangedIsRefusedWithTheMessageOfTheWholeRead() {
    Random random = new Random(40);
    LedgerSegment segment = history(random, 12).segment(0, 12, false, true);
    byte[] bytes = segment.encode();
    LedgerCommit.SegmentRef ref = refOf("seg.seg", bytes);
    List<byte[]> variants = new ArrayList<>();
    for (int length = 0; length < bytes.length; length++) {
      variants.add(Arrays.copyOf(bytes, length));
    }
    for (int at = 0; at < bytes.length; at++) {
      byte[] changed = bytes.clone();
      changed[at] ^= (byte) (1 << (at % 8));
      variants.add(changed);
    }
    byte[] grown = Arrays.copyOf(bytes, bytes.length + 1);
    grown[bytes.length] = 42;
    variants.add(grown);
    // Another sound segment in its place, of the same length (its first manifest of another size)
    // or not: complete by itself, not the one committed.
    List<LedgerVersion> versions = new ArrayList<>(segment.versions());
    LedgerVersion first = versions.get(0);
    versions.set(0, new LedgerVersion(first.version(), first.manifestPath(), first.size() + 1,
        first.modificationTimeMillis(), first.timestampNanos()));
    variants.add(new LedgerSegment(segment.fingerprint(), segment.dataset(), versions, segment.opens(), segment.closes()).encode());
    variants.add(history(new Random(41), 12).segment(0, 12, false, true).encode());
    int refused = 0;
    for (byte[] file : variants) {
      storage.write("seg.seg", file);
      // Against the commit of the segment written, and against a commit that recorded this very
      // file: then the frame's own checks refuse it, in the order the whole read checked them.
      for (LedgerCommit.SegmentRef recorded : List.of(ref, refOf("seg.seg", file))) {
        String expected = outcome(() -> readWhole(file, recorded));
        for (int chunk : new int[] {1, 7, 64 * 1024}) {
          assertThat(outcome(() -> SegmentReader.decode(storage, "seg.seg", recorded, COMMIT, new LedgerElements()::canonical, chunk)))
              .as("a file of %d bytes against a commit recording %d, read in ranges of %d", file.length, recorded.length(), chunk)
              .isEqualTo(expected);
        }
        refused += expected.startsWith("refused") ? 1 : 0;
      }
    }
    assertThat(refused).as("refusals exercised").isGreaterThan(2 * bytes.length);
  }

  @Test
  void aRefusedSegmentLeavesTheFoldAsIfItHadNeverBeenRead() {
    for (int seed = 0; seed < 12; seed++) {
      Random random = new Random(100 + seed);
      LedgerFoldEquivalenceTest.History history = history(random, 16);
      LedgerSegment first = history.segment(0, 8, false, true);
      LedgerSegment second = history.segment(8, 16, false, true);
      byte[] bytes = second.encode();
      LedgerCommit.SegmentRef ref = refOf("seg.seg", bytes);
      LedgerState expected = fold(first, second);
      for (int at = 0; at < bytes.length; at += 1 + random.nextInt(5)) {
        byte[] damaged = at % 2 == 0 ? Arrays.copyOf(bytes, at) : flipped(bytes, at);
        LedgerState state = fold(first);
        storage.write("seg.seg", damaged);
        Throwable refusal = catchThrowable(() -> read(state, ref));
        assertThat(refusal).as("seed %d, damaged at %d", seed, at).isInstanceOf(LedgerFormatException.class);

        storage.write("seg.seg", bytes);
        state.apply("seg.seg", read(state, ref));
        assertSameFold(state, expected);
      }
    }
  }

  @Test
  void aLedgerFoldsASegmentOfSeveralRangesReadNeverWhole() {
    Ledger ledger = new Ledger(disk, DatasetRef.MAIN, Clock.systemUTC());
    LedgerSegment segment = manyOpens(ledger.fingerprint(), 320_000);
    LedgerState continued = new LedgerState(ledger.fingerprint(), DatasetRef.MAIN);
    continued.apply("s", segment);
    assertThat(ledger.append(ledger.read(), segment, continued, Set.of(1L, 2L, 3L, 4L))).isTrue();
    List<Integer> segmentReads = Collections.synchronizedList(new ArrayList<>());
    TableStorage counting = (TableStorage) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {TableStorage.class}, (proxy, method, args) -> {
          if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
          }
          if (method.getName().startsWith("read") && args[0].toString().endsWith(".seg")) {
            segmentReads.add(method.getName().equals("read") ? (Integer) args[2] : Integer.MAX_VALUE);
          }
          try {
            return method.invoke(disk, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });

    LedgerRead read = new Ledger(counting, DatasetRef.MAIN, Clock.systemUTC()).read();

    assertThat(read.isUsable()).as(read.problem().orElse("usable")).isTrue();
    assertSameFold(read.state().orElseThrow(), continued);
    assertThat(segmentReads).as("ranged reads of the segment, never the whole file").hasSizeGreaterThan(1)
        .allSatisfy(length -> assertThat(length).isLessThanOrEqualTo(StorageInputStream.CHUNK_BYTES));
  }

  /** The read the stream replaced: the file at its recorded length, checked whole, then decoded. */
  private static LedgerSegment readWhole(byte[] file, LedgerCommit.SegmentRef ref) {
    if (file.length < ref.length()) {
      throw new LedgerFormatException("seg.seg", "length or checksum differs from what its commit records (the file is shorter)");
    }
    byte[] content = Arrays.copyOf(file, (int) ref.length());
    if (!ref.matches(content)) {
      throw new LedgerFormatException("seg.seg", "length or checksum differs from what " + COMMIT + " records");
    }
    return LedgerSegment.decode("seg.seg", content);
  }

  private LedgerSegment read(LedgerState state, LedgerCommit.SegmentRef ref) {
    return state.decodeCanonical(canonical -> SegmentReader.decode(storage, "seg.seg", ref, COMMIT, canonical, 7));
  }

  private static String outcome(java.util.function.Supplier<LedgerSegment> read) {
    try {
      return "read " + read.get();
    } catch (LedgerFormatException e) {
      return "refused: " + e.getMessage();
    }
  }

  private static LedgerFoldEquivalenceTest.History history(Random random, int versions) {
    LedgerFoldEquivalenceTest.History history = new LedgerFoldEquivalenceTest.History(random);
    for (int v = 0; v < versions; v++) {
      history.next();
    }
    return history;
  }

  private static LedgerState fold(LedgerSegment... segments) {
    LedgerState state = new LedgerState("f1", DatasetRef.MAIN);
    for (LedgerSegment segment : segments) {
      state.apply("s", LedgerSegment.decode("s", segment.encode(), state::canonical));
    }
    return state;
  }

  /** Everything a later run reads from a fold, in its order: versions, ranges, open elements, what a compaction writes. */
  private static void assertSameFold(LedgerState actual, LedgerState expected) {
    assertThat(actual.versions()).isEqualTo(expected.versions());
    assertThat(actual.ranges()).isEqualTo(expected.ranges());
    assertThat(new ArrayList<>(actual.openElements())).isEqualTo(new ArrayList<>(expected.openElements()));
    Set<Long> listed = new TreeSet<>(expected.versions().keySet());
    assertThat(actual.compacted(listed).encode()).isEqualTo(expected.compacted(listed).encode());
  }

  private static LedgerSegment manyOpens(int count) {
    return manyOpens("f1", count);
  }

  private static LedgerSegment manyOpens(String fingerprint, int count) {
    List<LedgerSegment.Open> opens = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      opens.add(new LedgerSegment.Open(new LedgerElement("data/" + i + ".lance", FileKind.DATA, true), 1 + i % 4));
    }
    return new LedgerSegment(fingerprint, DatasetRef.MAIN, List.of(LedgerFilesTest.version(1), LedgerFilesTest.version(2),
        LedgerFilesTest.version(3), LedgerFilesTest.version(4)), opens, List.of(), true);
  }

  private LedgerCommit.SegmentRef store(String name, byte[] bytes) {
    storage.write(name, bytes);
    return refOf(name, bytes);
  }

  private static LedgerCommit.SegmentRef refOf(String name, byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return new LedgerCommit.SegmentRef(name, bytes.length, crc.getValue());
  }

  private static byte[] flipped(byte[] bytes, int at) {
    byte[] changed = bytes.clone();
    changed[at] ^= 0x10;
    return changed;
  }
}
