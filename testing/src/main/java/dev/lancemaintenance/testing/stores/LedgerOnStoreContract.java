package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.ledger.Ledger;
import dev.lancemaintenance.ledger.LedgerAppends;
import dev.lancemaintenance.ledger.LedgerElement;
import dev.lancemaintenance.ledger.LedgerRead;
import dev.lancemaintenance.ledger.LedgerSegment;
import dev.lancemaintenance.ledger.LedgerState;
import dev.lancemaintenance.ledger.LedgerVersion;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The maintenance ledger on one real store: what is committed reads back; a crash at any point
 * (a segment without its commit, a commit or a segment cut short) leaves either the previous
 * ledger or an unusable one, never a wrong one; a ledger copied from another table is not used;
 * compaction keeps what the listed versions need and prunes the rest. Run by each store's lease IT
 * ({@link LocalLeaseIT}, {@link HdfsLeaseIT}, {@link S3LeaseIT}), which already says how to reach an
 * empty place on its store, so the store starts once for both.
 */
interface LedgerOnStoreContract {
  StorageConf storageConf();

  /** An empty place on the store, as a table root. */
  String emptyRoot(String name);

  /**
   * Whether a second create-if-absent of one path, after the first returned, overwrites it: only
   * where the client sends a conditional create that the store ignores (s3proxy with hadoop-aws
   * 3.4); a check-then-create (hadoop-aws 3.3) or a real conditional create refuses it.
   */
  default boolean secondCreateOverwrites() {
    return !createIfAbsentIsAtomic();
  }

  /** Whether the store decides create-if-absent atomically (s3proxy does not). */
  boolean createIfAbsentIsAtomic();

  /** How the store's tables are opened: through Hadoop unless the store's IT says otherwise. */
  default TableStorageFactory stores() {
    return HadoopTableStorage.factory(storageConf());
  }

  private TableStorage open(String name) {
    name = "ledger-" + name;
    return stores().open(TableLocation.of(emptyRoot(name)));
  }

  private static LedgerElement data(long v) {
    return new LedgerElement("data/f" + v + ".lance", FileKind.DATA, true);
  }

  private static LedgerVersion version(long v) {
    return new LedgerVersion(v, "_versions/" + v + ".manifest", 100 + v, 1_000 * v, 5_000L * v);
  }

  /** Version {@code v} appends {@code data/f<v>.lance}; each even version also drops the file of the version before. */
  private static LedgerSegment appendOf(Ledger ledger, long v) {
    List<LedgerSegment.Close> closes = v % 2 == 0 ? List.of(new LedgerSegment.Close(data(v - 1), v)) : List.of();
    return ledger.segment(List.of(version(v)), List.of(new LedgerSegment.Open(data(v), v)), closes);
  }

  private static Set<Long> upTo(long last) {
    Set<Long> all = new TreeSet<>();
    LongStream.rangeClosed(1, last).forEach(all::add);
    return all;
  }

  @Test
  default void whatIsCommittedReadsBack() {
    try (TableStorage storage = open("reads-back")) {
      Ledger ledger = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC());
      assertThat(ledger.read().problem()).as("no ledger yet").isPresent();
      for (long v = 1; v <= 3; v++) {
        assertThat(LedgerAppends.append(ledger, ledger.read(), appendOf(ledger, v), upTo(v))).as("commit of v%d", v).isTrue();
      }
      LedgerRead read = ledger.read();
      assertThat(read.isUsable()).as(read.problem().orElse("")).isTrue();
      LedgerState state = read.state().orElseThrow();
      assertThat(state.versions().keySet()).containsExactly(1L, 2L, 3L);
      assertThat(state.ranges()).containsExactlyInAnyOrder(
          new LedgerState.Range(data(1), 1, 2), new LedgerState.Range(data(2), 2, LedgerState.OPEN),
          new LedgerState.Range(data(3), 3, LedgerState.OPEN));
      assertThat(read.headGeneration()).isEqualTo(3);
    }
  }

  @Test
  default void aSegmentWrittenWithoutItsCommitIsIgnored() {
    try (TableStorage storage = open("crash-before-commit")) {
      Ledger ledger = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC());
      LedgerAppends.append(ledger, ledger.read(), appendOf(ledger, 1), upTo(1));
      // A writer that died after its segment and before its commit.
      storage.write(Ledger.DIR + "/seg-0000000000000000002-dead.seg", appendOf(ledger, 2).encode());
      LedgerRead read = ledger.read();
      assertThat(read.state().orElseThrow().endVersion()).as("the committed ledger, not the orphan").isEqualTo(1);
    }
  }

  @Test
  default void aCommitOrSegmentCutShortMakesTheLedgerUnusableAndTheNextCommitStartsAfresh() {
    try (TableStorage storage = open("cut-short")) {
      Ledger ledger = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC());
      LedgerAppends.append(ledger, ledger.read(), appendOf(ledger, 1), upTo(1));
      LedgerAppends.append(ledger, ledger.read(), appendOf(ledger, 2), upTo(2));
      String head = Ledger.commitPath(DatasetRef.MAIN, 2);
      byte[] commit = storage.readFully(head);
      storage.write(head, Arrays.copyOf(commit, commit.length / 2));
      LedgerRead cut = ledger.read();
      assertThat(cut.problem()).as("commit cut short").get().asString().contains("cut short");
      assertThat(cut.headGeneration()).isEqualTo(2);

      LedgerSegment fresh = ledger.segment(List.of(version(1), version(2)),
          List.of(new LedgerSegment.Open(data(1), 1), new LedgerSegment.Open(data(2), 2)), List.of(new LedgerSegment.Close(data(1), 2)));
      assertThat(LedgerAppends.append(ledger, cut, fresh, upTo(2))).isTrue();
      assertThat(ledger.read().state().orElseThrow().endVersion()).as("fresh ledger at generation 3").isEqualTo(2);

      String segment = Ledger.DIR + "/" + ledger.read().commit().orElseThrow().segments().get(0).name();
      byte[] bytes = storage.readFully(segment);
      storage.write(segment, Arrays.copyOf(bytes, bytes.length - 1));
      assertThat(ledger.read().problem()).as("segment cut short").get().asString().contains("checksum");
    }
  }

  @Test
  default void aLedgerCopiedFromAnotherTableIsNotUsed() {
    try (TableStorage source = open("copy-source"); TableStorage target = open("copy-target")) {
      Ledger theirs = new Ledger(source, DatasetRef.MAIN, Clock.systemUTC());
      LedgerAppends.append(theirs, theirs.read(), appendOf(theirs, 1), upTo(1));
      for (Iterator<FileEntry> files = source.listFiles(Ledger.DIR, true); files.hasNext(); ) {
        String path = files.next().path();
        target.write(path, source.readFully(path));
      }
      LedgerRead read = new Ledger(target, DatasetRef.MAIN, Clock.systemUTC()).read();
      assertThat(read.problem()).get().asString().contains("another table");
      assertThat(new Ledger(source, DatasetRef.branch("b1"), Clock.systemUTC()).read().isUsable()).as("another dataset of the same table").isFalse();
    }
  }

  @Test
  default void manyAppendsAreCompactedIntoOneSegmentAndOldFilesPruned() {
    try (TableStorage storage = open("compaction")) {
      Ledger ledger = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC());
      int appends = Ledger.COMPACT_AT_SEGMENTS + 3;
      for (long v = 1; v <= appends; v++) {
        assertThat(LedgerAppends.append(ledger, ledger.read(), appendOf(ledger, v), upTo(v))).isTrue();
      }
      LedgerRead read = ledger.read();
      assertThat(read.commit().orElseThrow().segments()).as("compacted once, then 3 appends").hasSize(4);
      LedgerState state = read.state().orElseThrow();
      for (long v = 1; v <= appends; v++) {
        long version = v;
        long leaves = v % 2 == 1 ? v + 1 : LedgerState.OPEN;
        assertThat(state.ranges()).as("f%d after compaction", v)
            .contains(new LedgerState.Range(data(version), version, leaves == appends + 1 ? LedgerState.OPEN : leaves));
      }
      List<String> commits = new ArrayList<>();
      storage.listFiles(Ledger.DIR, false).forEachRemaining(f -> {
        if (f.path().contains("commit.")) {
          commits.add(f.path());
        }
      });
      assertThat(commits).as("older commits pruned").containsExactly(Ledger.commitPath(DatasetRef.MAIN, appends));
    }
  }

  @Test
  default void ofTwoWritersOfOneGenerationOnlyOneCommits() {
    try (TableStorage storage = open("two-writers")) {
      Ledger ledger = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC());
      LedgerAppends.append(ledger, ledger.read(), appendOf(ledger, 1), upTo(1));
      // Two writers that read the same generation, each folding its own read.
      LedgerRead mine = ledger.read();
      LedgerRead theirs = ledger.read();
      boolean first = LedgerAppends.append(ledger, mine, appendOf(ledger, 2), upTo(2));
      boolean second = LedgerAppends.append(ledger, theirs, appendOf(ledger, 2), upTo(2));
      assertThat(first).isTrue();
      // Where the store cannot refuse the second create, its commit replaces the first whole: the
      // ledger is still one writer's consistent view, never a mix.
      assertThat(second).as("the second writer read the same generation").isEqualTo(secondCreateOverwrites());
      assertThat(ledger.read().state().orElseThrow().endVersion()).isEqualTo(2);
    }
  }
}
