package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Partitions sorted from bare hashes are the ones sorted from a map of entries, every entry is
 * found, and a partition merged with changes holds what a map with the changes put in holds.
 */
class KeyPartitionTest {
  @Test
  void hashesSortedWithoutObjectsAreTheMapsPartitions() {
    Random random = new Random(15);
    int count = 60_000;
    long[] high = new long[count];
    long[] low = new long[count];
    Map<KeyHash, KeyPartition.Entry> expected = new HashMap<>();
    for (int i = 0; i < count; i++) {
      if (i > 0 && random.nextInt(10) == 0) {
        high[i] = high[i - 1]; // a key given twice (two elements)
        low[i] = low[i - 1];
      } else if (i % 3 == 0) {
        // A crowded bucket (names aimed at it): the leading 16 bits the same, a few hundred of them.
        high[i] = 0x7ab3_0000_0000_0000L | (random.nextLong() >>> 16);
        low[i] = random.nextInt(4) == 0 ? 5 : random.nextLong(); // and low halves that tie
      } else {
        high[i] = random.nextLong();
        low[i] = random.nextLong();
      }
      expected.computeIfAbsent(new KeyHash(high[i], low[i]), any -> new KeyPartition.Entry(KeySnapshot.OPEN, 0)).openElements++;
    }
    List<KeyPartition> sorted = KeyPartition.ofOpenHashes(high, low, count);
    List<KeyPartition> fromMap = KeyPartition.of(expected);
    for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
      assertSame(sorted.get(partition), fromMap.get(partition), "partition " + partition);
    }
    expected.forEach((hash, entry) -> {
      KeyPartition partition = sorted.get(hash.partition());
      int at = partition.indexOf(hash.high(), hash.low());
      assertThat(at).isNotNegative();
      assertThat(partition.openElements[at]).isEqualTo((byte) entry.openElements);
    });
    assertThat(sorted.get(3).indexOf(0x3000_0000_0000_0001L, 1)).isNegative();
  }

  @Test
  void referencesSortedWithoutObjectsAreTheMapsPartitionsWithEachKeysNewestAndOpenCount() {
    Random random = new Random(38);
    int count = 60_000;
    long[] high = new long[count];
    long[] low = new long[count];
    long[] newest = new long[count];
    Map<KeyHash, KeyPartition.Entry> expected = new HashMap<>();
    for (int i = 0; i < count; i++) {
      if (i > 0 && random.nextInt(4) == 0) {
        high[i] = high[i - 1]; // a key referenced in several ranges, each with its own newest
        low[i] = low[i - 1];
      } else if (i % 3 == 0) {
        // A crowded bucket, sorted by objects: the newest versions must move with their hashes.
        high[i] = 0x7ab3_0000_0000_0000L | (random.nextLong() >>> 16);
        low[i] = random.nextLong();
      } else {
        high[i] = random.nextLong();
        low[i] = random.nextLong();
      }
      newest[i] = random.nextInt(5) == 0 ? KeySnapshot.OPEN : random.nextInt(100_000);
      KeyPartition.Entry entry = expected.computeIfAbsent(new KeyHash(high[i], low[i]), any -> new KeyPartition.Entry(-1, 0));
      entry.newest = Math.max(entry.newest, newest[i]);
      entry.openElements += newest[i] == KeySnapshot.OPEN ? 1 : 0;
    }
    List<KeyPartition> sorted = KeyPartition.ofReferences(high, low, newest, count);
    List<KeyPartition> fromMap = KeyPartition.of(expected);
    assertThat(fromMap.get(0x7).size()).as("the crowded bucket's partition").isGreaterThan(10_000);
    for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
      assertSame(sorted.get(partition), fromMap.get(partition), "partition " + partition);
    }
  }

  @Test
  void aKeyGivenMoreTimesThanAnEntryCountsIsRefused() {
    long[] high = new long[200];
    long[] low = new long[200];
    assertThatThrownBy(() -> KeyPartition.ofOpenHashes(high, low, 200)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anEntryCountingMoreOpenElementsThanItsByteHoldsIsRefusedWhereverItIsMade() {
    KeyPartition.Builder builder = new KeyPartition.Builder(3);
    builder.add(1, 1, KeySnapshot.OPEN, Byte.MAX_VALUE);
    assertThatThrownBy(() -> builder.add(2, 2, KeySnapshot.OPEN, Byte.MAX_VALUE + 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("128 open elements");
    assertThatThrownBy(() -> builder.add(3, 3, 7, -1)).isInstanceOf(IllegalStateException.class);
    Map<KeyHash, KeyPartition.Entry> tooMany = Map.of(new KeyHash(4, 4), new KeyPartition.Entry(KeySnapshot.OPEN, 300));
    assertThatThrownBy(() -> KeyPartition.of(tooMany)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void changesTakeThePlaceOfTheEntriesOfTheirHashesAndAChangeWithoutAReferenceLeavesNone() {
    Random random = new Random(31);
    for (int round = 0; round < 50; round++) {
      Map<KeyHash, KeyPartition.Entry> base = randomEntries(random, random.nextInt(3_000), List.of());
      List<KeyHash> baseHashes = List.copyOf(base.keySet());
      Map<KeyHash, KeyPartition.Entry> changes = randomEntries(random, random.nextInt(300), baseHashes);
      changes.values().forEach(entry -> {
        if (random.nextInt(4) == 0) {
          entry.newest = -1; // no listed version references the key any more
          entry.openElements = 0;
        }
      });
      Map<KeyHash, KeyPartition.Entry> expected = new HashMap<>(base);
      changes.forEach((hash, entry) -> {
        if (entry.newest < 0) {
          expected.remove(hash);
        } else {
          expected.put(hash, entry);
        }
      });
      List<KeyPartition> bases = KeyPartition.of(base);
      List<KeyPartition> changed = KeyPartition.of(changes);
      List<KeyPartition> want = KeyPartition.of(expected);
      for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
        assertSame(bases.get(partition).withChanges(changed.get(partition), KeyPartition.UnchangedEntry.AS_IS),
            want.get(partition), "round " + round + ", partition " + partition);
      }
    }
  }

  @Test
  void anUnchangedEntryGoesThroughTheGivenRuleAndAChangedOneDoesNot() {
    Map<KeyHash, KeyPartition.Entry> base = new HashMap<>();
    base.put(new KeyHash(1, 1), new KeyPartition.Entry(KeySnapshot.OPEN, 2));
    base.put(new KeyHash(1, 2), new KeyPartition.Entry(KeySnapshot.OPEN, 1));
    base.put(new KeyHash(1, 3), new KeyPartition.Entry(40, 0));
    Map<KeyHash, KeyPartition.Entry> changes = Map.of(new KeyHash(1, 2), new KeyPartition.Entry(KeySnapshot.OPEN, 3),
        new KeyHash(1, 4), new KeyPartition.Entry(KeySnapshot.OPEN, 1));
    KeyPartition merged = KeyPartition.of(base).get(0).withChanges(KeyPartition.of(changes).get(0),
        (into, from, at) -> into.add(from.high[at], from.low[at], 99, 0));
    assertThat(merged.low).containsExactly(1, 2, 3, 4);
    assertThat(merged.newest).containsExactly(99, KeySnapshot.OPEN, 99, KeySnapshot.OPEN);
    assertThat(merged.openElements).containsExactly(0, 3, 0, 1);
  }

  /** {@code count} entries, about half of them under hashes drawn from {@code reuse} when it has any. */
  private static Map<KeyHash, KeyPartition.Entry> randomEntries(Random random, int count, List<KeyHash> reuse) {
    Map<KeyHash, KeyPartition.Entry> entries = new HashMap<>();
    for (int i = 0; i < count; i++) {
      KeyHash hash = !reuse.isEmpty() && random.nextBoolean() ? reuse.get(random.nextInt(reuse.size()))
          : new KeyHash(random.nextLong(), random.nextLong());
      boolean open = random.nextBoolean();
      entries.put(hash, new KeyPartition.Entry(open ? KeySnapshot.OPEN : random.nextInt(1_000), open ? 1 + random.nextInt(3) : 0));
    }
    return entries;
  }

  private static void assertSame(KeyPartition got, KeyPartition want, String where) {
    assertThat(got.high).as(where).isEqualTo(want.high);
    assertThat(got.low).as(where).isEqualTo(want.low);
    assertThat(got.newest).as(where).isEqualTo(want.newest);
    assertThat(got.openElements).as(where).isEqualTo(want.openElements);
  }
}
