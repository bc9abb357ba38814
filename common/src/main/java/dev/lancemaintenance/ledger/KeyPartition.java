package dev.lancemaintenance.ledger;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One partition of key entries, sorted by hash, 25 bytes an entry and no object per entry: a
 * snapshot's ({@link KeySnapshot}), and the continued one a run answers from ({@link
 * KeySnapshotAnswers}).
 */
final class KeyPartition {
  final long[] high;
  final long[] low;
  final long[] newest;
  final byte[] openElements;

  KeyPartition(long[] high, long[] low, long[] newest, byte[] openElements) {
    this.high = high;
    this.low = low;
    this.newest = newest;
    this.openElements = openElements;
  }

  /**
   * The partitions of {@code entries}, each sorted by hash.
   *
   * @throws IllegalStateException when an entry has more than {@link Byte#MAX_VALUE} open elements
   */
  static List<KeyPartition> of(Map<KeyHash, Entry> entries) {
    List<List<Map.Entry<KeyHash, Entry>>> byPartition = new ArrayList<>();
    for (int i = 0; i < KeyHash.PARTITIONS; i++) {
      byPartition.add(new ArrayList<>());
    }
    entries.entrySet().forEach(entry -> byPartition.get(entry.getKey().partition()).add(entry));
    List<KeyPartition> partitions = new ArrayList<>();
    for (List<Map.Entry<KeyHash, Entry>> part : byPartition) {
      part.sort(Map.Entry.comparingByKey());
      Builder partition = new Builder(part.size());
      part.forEach(entry -> partition.add(entry.getKey().high(), entry.getKey().low(), entry.getValue().newest,
          entry.getValue().openElements));
      partitions.add(partition.build());
    }
    return partitions;
  }

  /**
   * The partitions of the hashes {@code high[i], low[i]} for {@code i < count}, each distinct hash
   * once, {@link KeySnapshot#OPEN}, with as its open elements how many times it was given (a key's
   * elements each give its hash once).
   *
   * @throws IllegalStateException when a hash is given more than {@link Byte#MAX_VALUE} times
   */
  static List<KeyPartition> ofOpenHashes(long[] high, long[] low, int count) {
    long[] newest = new long[count];
    Arrays.fill(newest, KeySnapshot.OPEN);
    return ofReferences(high, low, newest, count);
  }

  /**
   * The partitions of the references {@code high[i], low[i]} for {@code i < count}, the key with
   * that hash referenced up to version {@code newest[i]} ({@link KeySnapshot#OPEN}: still): each
   * distinct hash once, with the newest of its references and, as its open elements, how many of
   * them are open. Sorted without an object per reference (a snapshot made from a first run's
   * ledger has one per file of the table's history, a map of objects of them did not fit a 512 MB
   * heap beside the ledger's fold): by the leading 16 bits (the partition's and its bucket's) in
   * one counting pass, then within each bucket, of a dozen hashes on average at a million.
   *
   * @throws IllegalStateException when a hash has more than {@link Byte#MAX_VALUE} open references
   */
  static List<KeyPartition> ofReferences(long[] high, long[] low, long[] newest, int count) {
    int buckets = 1 << (KeyHash.PARTITION_BITS + BUCKET_BITS);
    int[] starts = new int[buckets + 1];
    for (int i = 0; i < count; i++) {
      starts[leading(high[i]) + 1]++;
    }
    for (int bucket = 0; bucket < buckets; bucket++) {
      starts[bucket + 1] += starts[bucket];
    }
    int[] filled = Arrays.copyOf(starts, buckets);
    long[] sortedHigh = new long[count];
    long[] sortedLow = new long[count];
    long[] sortedNewest = new long[count];
    for (int i = 0; i < count; i++) {
      int at = filled[leading(high[i])]++;
      sortedHigh[at] = high[i];
      sortedLow[at] = low[i];
      sortedNewest[at] = newest[i];
    }
    for (int bucket = 0; bucket < buckets; bucket++) {
      sortRange(sortedHigh, sortedLow, sortedNewest, starts[bucket], starts[bucket + 1]);
    }
    List<KeyPartition> partitions = new ArrayList<>();
    for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
      int from = starts[partition << BUCKET_BITS];
      int to = starts[(partition + 1) << BUCKET_BITS];
      Builder built = new Builder(to - from);
      for (int at = from; at < to; ) {
        long newestOfKey = -1;
        int open = 0;
        int same = at;
        while (same < to && sortedHigh[same] == sortedHigh[at] && sortedLow[same] == sortedLow[at]) {
          newestOfKey = Math.max(newestOfKey, sortedNewest[same]);
          open += sortedNewest[same] == KeySnapshot.OPEN ? 1 : 0;
          same++;
        }
        built.add(sortedHigh[at], sortedLow[at], newestOfKey, open);
        at = same;
      }
      partitions.add(built.build());
    }
    return partitions;
  }

  /** The partition's and the bucket's bits of a hash: the order's leading 16 bits. */
  private static int leading(long high) {
    return (int) (high >>> (Long.SIZE - KeyHash.PARTITION_BITS - BUCKET_BITS));
  }

  /**
   * Sorts {@code [from, to)} of the three arrays by hash: by insertion in a bucket of the usual
   * few, else by objects.
   */
  private static void sortRange(long[] high, long[] low, long[] newest, int from, int to) {
    if (to - from > 64) {
      // Uniform hashes do not crowd a bucket; names aimed at one only cost this.
      Reference[] references = new Reference[to - from];
      for (int at = from; at < to; at++) {
        references[at - from] = new Reference(new KeyHash(high[at], low[at]), newest[at]);
      }
      Arrays.sort(references, Comparator.comparing(Reference::hash));
      for (int at = from; at < to; at++) {
        high[at] = references[at - from].hash().high();
        low[at] = references[at - from].hash().low();
        newest[at] = references[at - from].newest();
      }
      return;
    }
    for (int at = from + 1; at < to; at++) {
      long h = high[at];
      long l = low[at];
      long n = newest[at];
      int into = at - 1;
      while (into >= from && KeyHash.compare(high[into], low[into], h, l) > 0) {
        high[into + 1] = high[into];
        low[into + 1] = low[into];
        newest[into + 1] = newest[into];
        into--;
      }
      high[into + 1] = h;
      low[into + 1] = l;
      newest[into + 1] = n;
    }
  }

  private record Reference(KeyHash hash, long newest) {}

  int size() {
    return high.length;
  }

  KeyHash hashAt(int at) {
    return new KeyHash(high[at], low[at]);
  }

  int indexOf(KeyHash hash) {
    return indexOf(hash.high(), hash.low());
  }

  /**
   * The index of the hash {@code (high, low)}, or a negative number when it has no entry. The
   * hashes are uniform, so the next {@value #BUCKET_BITS} bits after the partition's narrow the
   * search to a bucket of a few entries (about 14 at ~57,000 a partition), a cache line or two
   * instead of a binary search's sixteen misses over the whole partition.
   */
  int indexOf(long high, long low) {
    int[] starts = bucketStarts();
    int bucket = bucketOf(high);
    int from = starts[bucket];
    int to = starts[bucket + 1] - 1;
    while (from <= to) {
      int middle = (from + to) >>> 1;
      int order = KeyHash.compare(this.high[middle], this.low[middle], high, low);
      if (order < 0) {
        from = middle + 1;
      } else if (order > 0) {
        to = middle - 1;
      } else {
        return middle;
      }
    }
    return -1;
  }

  private static final int BUCKET_BITS = 12;
  /** Where each bucket's entries start (its last element: the size); made on the first lookup. */
  private volatile int[] bucketStarts;

  private static int bucketOf(long high) {
    return (int) ((high << KeyHash.PARTITION_BITS) >>> (Long.SIZE - BUCKET_BITS));
  }

  /** Made once the arrays are filled (a reader fills them after construction); racing makers make the same. */
  int[] bucketStarts() {
    int[] starts = bucketStarts;
    if (starts == null) {
      starts = new int[(1 << BUCKET_BITS) + 1];
      for (int at = 0; at < size(); at++) {
        starts[bucketOf(high[at]) + 1]++;
      }
      for (int bucket = 0; bucket < (1 << BUCKET_BITS); bucket++) {
        starts[bucket + 1] += starts[bucket];
      }
      bucketStarts = starts;
    }
    return starts;
  }

  /** A copy of the entry of {@code hash}, if it has one. */
  Optional<Entry> find(KeyHash hash) {
    int at = indexOf(hash);
    return at < 0 ? Optional.empty() : Optional.of(new Entry(newest[at], openElements[at]));
  }

  /**
   * This partition with {@code changes} merged in, in hash order: a change takes the place of this
   * partition's entry of its hash (or is new), and a change whose {@code newest} is negative (no
   * listed version references the key any more) leaves no entry; an entry without a change goes
   * through {@code unchanged}. The one merge of a snapshot's entries with what later versions
   * changed: the first new version's keys ({@link ContinuedKeySnapshot}) and the later versions'
   * changed entries ({@link KeySnapshotAnswers}).
   */
  KeyPartition withChanges(KeyPartition changes, UnchangedEntry unchanged) {
    if (changes.size() == 0 && unchanged == UnchangedEntry.AS_IS) {
      return this; // immutable once built: shared, not copied
    }
    Builder merged = new Builder(size() + changes.size());
    int at = 0;
    int next = 0;
    while (at < size() || next < changes.size()) {
      int order = at == size() ? 1 : next == changes.size() ? -1
          : KeyHash.compare(high[at], low[at], changes.high[next], changes.low[next]);
      if (order < 0) {
        unchanged.add(merged, this, at);
        at++;
        continue;
      }
      if (changes.newest[next] >= 0) {
        merged.add(changes.high[next], changes.low[next], changes.newest[next], changes.openElements[next]);
      }
      at += order == 0 ? 1 : 0;
      next++;
    }
    return merged.build();
  }

  /** What {@link #withChanges} makes of an entry no change replaces. */
  @FunctionalInterface
  interface UnchangedEntry {
    /** The entry stays as it is. */
    UnchangedEntry AS_IS = (merged, from, at) -> merged.add(from.high[at], from.low[at], from.newest[at], from.openElements[at]);

    /** Adds {@code from}'s entry {@code at}, or what it becomes, to {@code merged}. */
    void add(Builder merged, KeyPartition from, int at);
  }

  /** One key's state while a snapshot is built or continued. */
  static final class Entry {
    /** The newest version referencing the key, {@link KeySnapshot#OPEN}, or -1 for none yet. */
    long newest;
    int openElements;

    Entry(long newest, int openElements) {
      this.newest = newest;
      this.openElements = openElements;
    }
  }

  /** A partition's entries added in hash order. */
  static final class Builder {
    private final long[] high;
    private final long[] low;
    private final long[] newest;
    private final byte[] openElements;
    private int size;

    Builder(int capacity) {
      high = new long[capacity];
      low = new long[capacity];
      newest = new long[capacity];
      openElements = new byte[capacity];
    }

    /**
     * @throws IllegalStateException when {@code openElements} does not fit the byte an entry keeps
     *     it in. A key has at most one element per file kind and certainty, so no table reaches the
     *     bound; a count past it would wrap and answer wrongly, so it is refused here, where every
     *     entry is made.
     */
    void add(long high, long low, long newest, int openElements) {
      if (openElements < 0 || openElements > Byte.MAX_VALUE) {
        throw new IllegalStateException(openElements + " open elements under one key, more than " + Byte.MAX_VALUE);
      }
      this.high[size] = high;
      this.low[size] = low;
      this.newest[size] = newest;
      this.openElements[size] = (byte) openElements;
      size++;
    }

    int size() {
      return size;
    }

    KeyPartition build() {
      return size == high.length ? new KeyPartition(high, low, newest, openElements)
          : new KeyPartition(Arrays.copyOf(high, size), Arrays.copyOf(low, size), Arrays.copyOf(newest, size),
              Arrays.copyOf(openElements, size));
    }
  }
}
