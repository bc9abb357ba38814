package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Partitions sorted from bare hashes are the ones sorted from a map of entries, and every entry is found. */
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
    List<KeyPartition> sorted = KeyPartition.ofHashes(high, low, count, KeySnapshot.OPEN);
    List<KeyPartition> fromMap = KeyPartition.of(expected);
    for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
      KeyPartition got = sorted.get(partition);
      KeyPartition want = fromMap.get(partition);
      assertThat(got.high).as("partition %d", partition).isEqualTo(want.high);
      assertThat(got.low).isEqualTo(want.low);
      assertThat(got.newest).isEqualTo(want.newest);
      assertThat(got.openElements).isEqualTo(want.openElements);
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
  void aKeyGivenMoreTimesThanAnEntryCountsIsRefused() {
    long[] high = new long[200];
    long[] low = new long[200];
    assertThatThrownBy(() -> KeyPartition.ofHashes(high, low, 200, KeySnapshot.OPEN)).isInstanceOf(IllegalStateException.class);
  }
}
