package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.format.DatasetRef;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Each key's mark, as the full mark stage would give it for this run, and the referenced-files
 * gate as a count: every entry answered {@code KEPT} must be met by a listed key ({@link
 * Listing#markOfListed}, {@link Listing#keptListed}) before {@link #everyKeptKeyListed} holds. Safe
 * for concurrent listing and decide tasks, each with its own {@link Listing}.
 *
 * <p>Layout: the continued snapshot as one sorted {@link KeyPartition} per partition (the
 * snapshot's entries with each changed one in its place, merged once when the answers are made),
 * beside two bit sets per partition: the entries answered {@code KEPT} (fixed when made) and the
 * entries a listed key met. A listed name is then one bucket search and two bits, with no object
 * per key: the merge answers exactly what a lookup of the changed entries before the snapshot's
 * answered, since a changed entry replaces the snapshot's entry of its hash in both.
 */
public final class KeySnapshotAnswers {
  private static final VarHandle BITS = MethodHandles.arrayElementVarHandle(long[].class);

  private final String fingerprint;
  private final DatasetRef dataset;
  private final long firstOfKeptTail;
  private final Map<KeyHash, Long> newestIsland;
  private final List<LedgerVersion> kept;
  /** Per partition, the continued snapshot's entries in hash order. */
  private final KeyPartition[] entries = new KeyPartition[KeyHash.PARTITIONS];
  /** Per partition, a bit per entry answered {@code KEPT}. */
  private final long[][] keptBits = new long[KeyHash.PARTITIONS][];
  /**
   * Per partition, a bit per entry a listed key met: set without a lock (tasks on several threads
   * meet entries of every partition), read once every task ended.
   */
  private final long[][] listedBits = new long[KeyHash.PARTITIONS][];

  /**
   * @param snapshot the snapshot's partitions, continued through the first new version
   * @param changed the entries the new versions changed, each in place of the snapshot's entry of its
   *     hash; one whose {@code newest} is negative has no listed version referencing it and no entry
   * @param firstOfKeptTail the first version from which every listed version keeps its files
   * @param newestIsland per key an island references, the newest such island
   * @param kept the listed versions that keep their files
   */
  KeySnapshotAnswers(String fingerprint, DatasetRef dataset, List<KeyPartition> snapshot,
      Map<KeyHash, KeyPartition.Entry> changed, long firstOfKeptTail, Map<KeyHash, Long> newestIsland,
      List<LedgerVersion> kept) {
    this.fingerprint = fingerprint;
    this.dataset = dataset;
    this.firstOfKeptTail = firstOfKeptTail;
    this.newestIsland = newestIsland;
    this.kept = kept;
    List<KeyPartition> changedByPartition = KeyPartition.of(changed);
    for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
      KeyPartition merged = snapshot.get(partition).withChanges(changedByPartition.get(partition), KeyPartition.UnchangedEntry.AS_IS);
      merged.bucketStarts(); // made here, before any task looks up
      entries[partition] = merged;
      long[] keeps = new long[words(merged.size())];
      for (int at = 0; at < merged.size(); at++) {
        if (keeps(merged.high[at], merged.low[at], merged.newest[at])) {
          keeps[at >>> 6] |= 1L << at;
        }
      }
      keptBits[partition] = keeps;
      listedBits[partition] = new long[keeps.length];
    }
  }

  private static int words(int bits) {
    return (bits + Long.SIZE - 1) / Long.SIZE;
  }

  /**
   * Whether a version that keeps its files references a key whose newest listed reference is
   * {@code newest}: every listed version from {@link #firstOfKeptTail} on keeps its files, and
   * below it only the islands do.
   */
  private boolean keeps(long high, long low, long newest) {
    return newest == KeySnapshot.OPEN || newest >= firstOfKeptTail
        || (!newestIsland.isEmpty() && newestIsland.containsKey(new KeyHash(high, low)));
  }

  /** The mark of a key no listing need meet (for tests and {@code verify}). */
  public Optional<MarkState> markOf(String key) {
    KeyHash hash = KeyHash.of(fingerprint, key);
    return Optional.ofNullable(markOf(hash.high(), hash.low(), false));
  }

  /** Lookups of listed names by one thread: its own hasher, so that a name makes no object. */
  public Listing listing() {
    return new Listing();
  }

  /** One thread's lookups of listed names (not safe for concurrent use; the answers they record are). */
  public final class Listing {
    private final KeyHasher hasher = new KeyHasher(fingerprint);

    private Listing() {}

    /** The mark of a listed file's reference key; records that the listing holds it. */
    public Optional<MarkState> markOfListed(String key) {
      hasher.hash(key);
      return Optional.ofNullable(markOf(hasher.high(), hasher.low(), true));
    }

    /**
     * Whether a listed file's reference key is answered {@code KEPT}; records that the listing holds
     * it, as {@link #markOfListed} does. The decision of such a file is settled: a version this run
     * keeps references it, so it stays whatever its kind, age or attributes, and nothing about it is
     * recorded for a resume ({@code DecideByPath.decideAndRecord} records only files that go or are
     * kept for their age). The listing calls this for every name, so that only the others travel on.
     */
    public boolean keptListed(String key) {
      hasher.hash(key);
      return markOf(hasher.high(), hasher.low(), true) == MarkState.KEPT;
    }
  }

  /** The key's mark, or null when no listed version references it; with {@code listed}, records that a listed key met it. */
  private MarkState markOf(long high, long low, boolean listed) {
    int partition = KeyHash.partitionOf(high);
    int at = entries[partition].indexOf(high, low);
    if (at < 0) {
      return null; // no listed version references it
    }
    long bit = 1L << at;
    if (listed) {
      long[] met = listedBits[partition];
      // Bits are only ever set, so a set bit read without the atomic is set for good.
      if (((long) BITS.getOpaque(met, at >>> 6) & bit) == 0) {
        BITS.getAndBitwiseOr(met, at >>> 6, bit);
      }
    }
    return (keptBits[partition][at >>> 6] & bit) != 0 ? MarkState.KEPT : MarkState.EXPIRED;
  }

  /**
   * Whether {@code key} is answered {@code KEPT} and no listed key met it: one the referenced-files
   * gate counts as missing. Asked only to name the missing keys in the gate's refusal, once every
   * decide task ended.
   */
  public boolean keptAndUnlisted(String key) {
    KeyHash hash = KeyHash.of(fingerprint, key);
    int partition = hash.partition();
    int at = entries[partition].indexOf(hash);
    long bit = 1L << at;
    return at >= 0 && (keptBits[partition][at >>> 6] & bit) != 0
        && ((long) BITS.getVolatile(listedBits[partition], at >>> 6) & bit) == 0;
  }

  /** The entries answered {@code KEPT}: the keys the listing must hold. */
  public long keptEntries() {
    long count = 0;
    for (long[] words : keptBits) {
      for (long word : words) {
        count += Long.bitCount(word);
      }
    }
    return count;
  }

  /** The entries answered {@code EXPIRED}; with {@link #keptEntries}, every key some listed version references. */
  public long expiredEntries() {
    long all = 0;
    for (KeyPartition partition : entries) {
      all += partition.size();
    }
    return all - keptEntries();
  }

  /** The entries answered {@code KEPT} that a listed key met. */
  public long keptEntriesListed() {
    long count = 0;
    for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
      long[] keeps = keptBits[partition];
      for (int word = 0; word < keeps.length; word++) {
        count += Long.bitCount(keeps[word] & (long) BITS.getVolatile(listedBits[partition], word));
      }
    }
    return count;
  }

  /**
   * The referenced-files gate as a count: every entry answered {@code KEPT} was met by a listed
   * key. A listing has each name once, and an entry is counted once however many names share its
   * key (an index directory), so the two counts are equal exactly when none is missing.
   */
  public boolean everyKeptKeyListed() {
    return keptEntriesListed() == keptEntries();
  }

  /**
   * The snapshot this run leaves: its versions those that keep their files; its entries the keys
   * answered {@code KEPT}, each with the newest kept version referencing it (its newest listed
   * one when that keeps its files, else the newest island referencing it). Keys answered {@code
   * EXPIRED} have no kept version referencing them and no entry.
   */
  /** The listed versions that keep their files: the versions {@link #next} describes. */
  public List<LedgerVersion> keptVersions() {
    return kept;
  }

  public KeySnapshot next() {
    List<KeyPartition> built = new ArrayList<>();
    for (KeyPartition partition : entries) {
      KeyPartition.Builder next = new KeyPartition.Builder(partition.size());
      for (int at = 0; at < partition.size(); at++) {
        long newest = partition.newest[at];
        if (newest == KeySnapshot.OPEN || newest >= firstOfKeptTail) {
          next.add(partition.high[at], partition.low[at], newest, partition.openElements[at]);
          continue;
        }
        Long island = newestIsland.isEmpty() ? null : newestIsland.get(partition.hashAt(at));
        if (island != null) {
          next.add(partition.high[at], partition.low[at], island, 0);
        }
      }
      built.add(next.build());
    }
    return new KeySnapshot(fingerprint, dataset, kept, built);
  }
}
