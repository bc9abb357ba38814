package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that decided from the key snapshot appends its new versions to the ledger from the head
 * commit alone (docs/ledger.md, section 12.4): the segment's first version is whole, and the fold
 * joins it against its own newest references. Whatever the ledger's end, what a later read folds
 * is what a ledger written version by version folds, or the ledger is left as it was.
 */
class LedgerAppendWithoutFoldTest {
  static final int VERSIONS = 40;

  @TempDir Path dir;
  TableStorage storage;
  Ledger ledger;
  /** Version {@code v}'s references at index {@code v}: random, keys often kept, left and taken back. */
  final List<Set<LedgerElement>> references = new ArrayList<>();

  @BeforeEach
  void openStorage() {
    storage = new HadoopTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults());
    ledger = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC());
    Random random = new Random(15);
    references.add(Set.of());
    for (int v = 1; v <= VERSIONS; v++) {
      Set<LedgerElement> elements = new HashSet<>();
      for (int key = 0; key < 30; key++) {
        if (random.nextInt(4) != 0) {
          elements.add(new LedgerElement("data/k" + key + ".lance", key % 7 == 0 ? FileKind.DELETION : FileKind.DATA, true));
        }
      }
      references.add(elements);
    }
  }

  @AfterEach
  void closeStorage() {
    storage.close();
  }

  @Test
  void aSegmentWhoseFirstVersionIsWholeReadsBackAndFoldsAsTheVersionByVersionLedger() {
    LedgerSegment whole = wholeFirst(11, 20);
    LedgerSegment decoded = LedgerSegment.decode("s", whole.encode());
    assertThat(decoded).isEqualTo(whole);
    assertThat(decoded.firstVersionWhole()).isTrue();

    LedgerState folded = fold(changes(1, 10), decoded);
    assertSameFold(folded, fold(changes(1, 20)));
    // Cut anywhere, the versions above the cut fold the same on a ledger that ends there.
    for (long end = 10; end < 20; end++) {
      assertSameFold(fold(changes(1, end), whole.wholeAbove(end)), fold(changes(1, 20)));
    }
  }

  @Test
  void aLedgerThatEndsAtTheSnapshotIsContinuedWithoutBeingRead() {
    commit(changes(1, 10));
    assertThat(ledger.appendWithoutFold(wholeFirst(11, 14), 10, listed(1, 14))).isEmpty();
    assertSameFold(ledger.read().state().orElseThrow(), fold(changes(1, 14)));
    assertThat(ledger.read().commit().orElseThrow().segments()).hasSize(2);
    // The prune, from the listing the append found its head in, removed the commit before.
    try (Stream<Path> files = Files.list(dir.resolve(Ledger.DIR))) {
      assertThat(files.map(file -> file.getFileName().toString()).filter(name -> name.startsWith("commit.")))
          .containsExactly(String.format("commit.%019d", ledger.read().headGeneration()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The run before committed its ledger and died before its snapshot: this run's versions above the ledger's end. */
  @Test
  void aLedgerAheadOfTheSnapshotIsContinuedAboveItsEnd() {
    commit(changes(1, 13));
    assertThat(ledger.appendWithoutFold(wholeFirst(11, 16), 10, listed(1, 16))).isEmpty();
    assertSameFold(ledger.read().state().orElseThrow(), fold(changes(1, 16)));
    assertThat(ledger.appendWithoutFold(wholeFirst(11, 16), 10, listed(1, 16))).get().asString().contains("already ends at version 16");
  }

  /** Versions between the ledger's end and the snapshot's were summarised by no segment this run has. */
  @Test
  void aLedgerBehindTheSnapshotOrAbsentOrDamagedIsLeftAsItIs() {
    assertThat(ledger.appendWithoutFold(wholeFirst(11, 14), 10, listed(1, 14))).get().asString().contains("no ledger yet");
    commit(changes(1, 8));
    long head = ledger.read().headGeneration();
    assertThat(ledger.appendWithoutFold(wholeFirst(11, 14), 10, listed(1, 14))).get().asString()
        .contains("ends at version 8, before the key snapshot's 10");
    assertThat(ledger.read().headGeneration()).isEqualTo(head);
    assertSameFold(ledger.read().state().orElseThrow(), fold(changes(1, 8)));

    assertThat(new Ledger(storage, DatasetRef.branch("b1"), Clock.systemUTC()).appendWithoutFold(
        new Ledger(storage, DatasetRef.branch("b1"), Clock.systemUTC()).wholeFirstSegment(List.of(), List.of(), List.of()), 10, Set.of()))
        .get().asString().contains("no new versions");
    assertThatThrownBy(() -> ledger.appendWithoutFold(changes(11, 14), 10, listed(1, 14)))
        .as("a segment of changes needs the fold").isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * The head commit read ahead, beside the plan ({@link LedgerHead}), is continued as the one read
   * at the append; when another writer committed after the read, the append loses its
   * create-if-absent and leaves that writer's ledger as it is, telling no one its commit was created.
   */
  @Test
  void aHeadReadAheadIsContinuedAndOneAnotherWriterSupersededLosesTheCreate() {
    commit(changes(1, 10));
    LedgerHead ahead = ledger.head(LedgerDirectory.list(storage, DatasetRef.MAIN));
    List<String> created = new ArrayList<>();
    assertThat(ledger.appendWithoutFold(ahead, wholeFirst(11, 14), 10, listed(1, 14), pruned -> {}, () -> created.add("ours")))
        .isEmpty();
    assertThat(created).containsExactly("ours");
    assertSameFold(ledger.read().state().orElseThrow(), fold(changes(1, 14)));

    LedgerHead stale = ledger.head(LedgerDirectory.list(storage, DatasetRef.MAIN));
    assertThat(ledger.appendWithoutFold(wholeFirst(15, 16), 14, listed(1, 16))).as("another writer, after the read").isEmpty();
    long head = ledger.read().headGeneration();
    created.clear();
    assertThat(ledger.appendWithoutFold(stale, wholeFirst(15, 18), 14, listed(1, 18), pruned -> created.add("pruned"),
        () -> created.add("ours"))).get().asString().contains("another writer committed first");
    assertThat(created).as("neither created nor pruned").isEmpty();
    assertThat(ledger.read().headGeneration()).isEqualTo(head);
    assertSameFold(ledger.read().state().orElseThrow(), fold(changes(1, 16)));

    assertThat(ledger.head(LedgerDirectory.list(storage, DatasetRef.branch("b1"))).problem()).get().asString()
        .contains("no ledger yet");
  }

  /**
   * The append that makes {@link Ledger#COMPACT_AT_SEGMENTS} segments compacts what the whole ledger
   * continued by this run's versions folds to, and appends go on from the one segment.
   */
  @Test
  void theAppendThatReachesTheCompactionCompactsTheContinuedFold() {
    commit(changes(1, 10));
    long v = 10;
    while (ledger.read().commit().orElseThrow().segments().size() < Ledger.COMPACT_AT_SEGMENTS - 1) {
      assertThat(ledger.appendWithoutFold(wholeFirst(v + 1, v + 1), v, listed(1, v + 1))).isEmpty();
      v++;
    }
    assertThat(ledger.appendWithoutFold(wholeFirst(v + 1, v + 2), v, listed(1, v + 2))).isEmpty();
    LedgerRead read = ledger.read();
    assertThat(read.commit().orElseThrow().segments()).hasSize(1);
    assertSameFold(read.state().orElseThrow(), fold(changes(1, v + 2)));
    assertThat(ledger.appendWithoutFold(wholeFirst(v + 3, v + 4), v + 2, listed(1, v + 4))).isEmpty();
    assertSameFold(ledger.read().state().orElseThrow(), fold(changes(1, v + 4)));
  }

  /** Versions {@code from..to} as today's path appends them: the first diffed against the version before. */
  LedgerSegment changes(long from, long to) {
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    for (long v = from; v <= to; v++) {
      diff(references.get((int) v - 1), v, opens, closes);
    }
    return ledger.segment(versions(from, to), opens, closes);
  }

  /** Versions {@code from..to} as a run that decided from the key snapshot summarises them: without base. */
  LedgerSegment wholeFirst(long from, long to) {
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    diff(Set.of(), from, opens, closes);
    for (long v = from + 1; v <= to; v++) {
      diff(references.get((int) v - 1), v, opens, closes);
    }
    return ledger.wholeFirstSegment(versions(from, to), opens, closes);
  }

  private void diff(Set<LedgerElement> before, long v, List<LedgerSegment.Open> opens, List<LedgerSegment.Close> closes) {
    Set<LedgerElement> now = references.get((int) v);
    now.stream().filter(element -> !before.contains(element)).forEach(element -> opens.add(new LedgerSegment.Open(element, v)));
    before.stream().filter(element -> !now.contains(element)).forEach(element -> closes.add(new LedgerSegment.Close(element, v)));
  }

  private static List<LedgerVersion> versions(long from, long to) {
    return LongStream.rangeClosed(from, to).mapToObj(LedgerFilesTest::version).toList();
  }

  private static Set<Long> listed(long from, long to) {
    Set<Long> listed = new HashSet<>();
    LongStream.rangeClosed(from, to).forEach(listed::add);
    return listed;
  }

  private void commit(LedgerSegment segment) {
    LedgerRead previous = ledger.read();
    LedgerState continued = previous.state().orElseGet(() -> new LedgerState(ledger.fingerprint(), DatasetRef.MAIN));
    continued.apply("test", segment);
    assertThat(ledger.append(previous, segment, continued, Set.of())).isTrue();
  }

  private LedgerState fold(LedgerSegment... segments) {
    LedgerState state = new LedgerState(ledger.fingerprint(), DatasetRef.MAIN);
    for (LedgerSegment segment : segments) {
      state.apply("test", segment);
    }
    return state;
  }

  private static void assertSameFold(LedgerState actual, LedgerState expected) {
    assertThat(actual.versions()).isEqualTo(expected.versions());
    assertThat(new HashSet<>(actual.ranges())).isEqualTo(new HashSet<>(expected.ranges()));
  }
}
