package dev.lancemaintenance.ledger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link KeySnapshot} carried through the versions new since its end: which listed versions keep
 * their files then decides each key's answer ({@link #answers}). The first new version, which
 * references every key the table holds, is merged into the entries in hash order; the keys the
 * later ones changed (a few each) are held beside them, each in place of its entry.
 */
public final class ContinuedKeySnapshot {
  private final KeySnapshot snapshot;
  private final TreeMap<Long, LedgerVersion> listed;
  /** The entries through the first new version: the snapshot's, with that version's changes merged in. */
  private final List<KeyPartition> throughFirst;
  /** The keys the later new versions changed, each in place of its entry in {@link #throughFirst}. */
  private final Map<KeyHash, KeyPartition.Entry> changed;

  private ContinuedKeySnapshot(KeySnapshot snapshot, TreeMap<Long, LedgerVersion> listed, List<KeyPartition> throughFirst,
      Map<KeyHash, KeyPartition.Entry> changed) {
    this.snapshot = snapshot;
    this.listed = listed;
    this.throughFirst = throughFirst;
    this.changed = changed;
  }

  /** Every version the continued snapshot speaks for: the snapshot's and the new ones. */
  public NavigableSet<Long> listedVersions() {
    return listed.navigableKeySet();
  }

  /**
   * The listed versions that keep their files yet lie below the first version from which every
   * listed version keeps its files: tags, out-of-order timestamps. Their manifests must be decoded
   * for {@link #answers}; the rest is answered by the entries.
   *
   * @param keepFiles the listed versions that keep their files under this run's policy
   */
  public NavigableSet<Long> islands(Set<Long> keepFiles) {
    return islands(keepFiles, firstOfKeptTail(keepFiles));
  }

  private static NavigableSet<Long> islands(Set<Long> keepFiles, long first) {
    NavigableSet<Long> islands = new TreeSet<>();
    keepFiles.stream().filter(version -> version < first).forEach(islands::add);
    return islands;
  }

  /**
   * One pass over the listed versions, newest first, with one lookup each: the tail ends at the
   * first that does not keep its files, and counting the listed ones that do tells whether every
   * version of {@code keepFiles} is listed (they are distinct). A {@code containsAll} before the
   * walk looked every version up in the listed tree once more (101,010 on {@code huge-steady}, for
   * each of the two callers).
   */
  private long firstOfKeptTail(Set<Long> keepFiles) {
    long first = KeySnapshot.OPEN;
    boolean inTail = true;
    int listedKeepingFiles = 0;
    for (Long version : listed.descendingKeySet()) {
      if (!keepFiles.contains(version)) {
        inTail = false;
        continue;
      }
      listedKeepingFiles++;
      if (inTail) {
        first = version;
      }
    }
    if (listedKeepingFiles != keepFiles.size()) {
      throw new IllegalArgumentException("a version that keeps its files is not listed: " + keepFiles);
    }
    if (first == KeySnapshot.OPEN) {
      throw new IllegalArgumentException("the newest listed version always keeps its files");
    }
    return first;
  }

  /**
   * Every key's answer under this run's retention.
   *
   * @param keepFiles the listed versions that keep their files
   * @param islandReferences per {@link #islands island}, the keys its manifest references
   */
  public KeySnapshotAnswers answers(Set<Long> keepFiles, Map<Long, ? extends Collection<String>> islandReferences) {
    long first = firstOfKeptTail(keepFiles);
    NavigableSet<Long> islands = islands(keepFiles, first);
    if (!islandReferences.keySet().equals(islands)) {
      throw new IllegalArgumentException("island references for " + islandReferences.keySet() + ", islands " + islands);
    }
    Map<KeyHash, Long> newestIsland = new HashMap<>();
    KeyHasher hasher = new KeyHasher(snapshot.fingerprint());
    islandReferences.forEach((island, keys) -> keys.forEach(key -> newestIsland.merge(hasher.keyHash(key), island, Math::max)));
    List<LedgerVersion> kept = listed.values().stream().filter(version -> keepFiles.contains(version.version())).toList();
    return new KeySnapshotAnswers(snapshot.fingerprint(), snapshot.dataset(), throughFirst, changed, first,
        newestIsland, kept);
  }

  /**
   * The snapshot carried through the versions new since its end. {@code changes} summarises them as
   * the ledger's first run does ({@link VersionSummaries}, joined, no base): the first new version
   * opens everything it references, each later one what it opens and closes against the one before.
   * The first is compared with the snapshot's newest version by key (its open entries), which is all
   * a mark needs, so no older manifest is decoded. Afterwards each key's {@code newest} is the
   * newest of the snapshot's versions and the new ones that references it, {@link KeySnapshot#OPEN}
   * when the newest new version does.
   *
   * @throws KeySnapshot.NotContinuable when a new version references a key through an uncertain place, or the
   *     changes do not continue the snapshot (a version not newer than its end, a close of a key
   *     that is not open)
   */
  static ContinuedKeySnapshot of(KeySnapshot snapshot, LedgerSegment changes) throws KeySnapshot.NotContinuable {
    String fingerprint = snapshot.fingerprint();
    if (!changes.fingerprint().equals(fingerprint) || !changes.dataset().equals(snapshot.dataset())) {
      throw new KeySnapshot.NotContinuable("the summary describes another table or dataset");
    }
    TreeMap<Long, LedgerVersion> listed = new TreeMap<>();
    snapshot.versions().forEach(version -> listed.put(version.version(), version));
    long previous = snapshot.endVersion();
    for (LedgerVersion version : changes.versions()) {
      if (version.version() <= previous) {
        throw new KeySnapshot.NotContinuable("version " + version.version() + " does not follow " + previous);
      }
      previous = version.version();
      listed.put(version.version(), version);
    }
    Map<KeyHash, KeyPartition.Entry> changed = new HashMap<>();
    if (changes.versions().isEmpty()) {
      if (!changes.opens().isEmpty() || !changes.closes().isEmpty()) {
        throw new KeySnapshot.NotContinuable("changes without a new version");
      }
      return new ContinuedKeySnapshot(snapshot, listed, snapshot.partitions(), changed);
    }
    long first = changes.versions().get(0).version();
    List<Change> inOrder = new ArrayList<>();
    changes.closes().forEach(close -> inOrder.add(new Change(close.element(), close.atVersion(), false)));
    changes.opens().forEach(open -> inOrder.add(new Change(open.element(), open.fromVersion(), true)));
    for (Change change : inOrder) {
      if (!change.element().certain()) {
        throw new KeySnapshot.NotContinuable("version " + change.version() + " references " + change.element().key()
            + " through a place that may be another table's");
      }
      if (!listed.containsKey(change.version()) || change.version() < first || (change.version() == first && !change.opens())) {
        throw new KeySnapshot.NotContinuable("a change at version " + change.version() + ", which the new versions do not summarise");
      }
    }
    List<KeyPartition> throughFirst = continueToFirst(snapshot, first, inOrder);
    // Closes before opens at one version, as the fold applies them (a key left and taken back).
    inOrder.sort(Comparator.comparingLong(Change::version).thenComparing(Change::opens));
    KeyHasher hasher = new KeyHasher(fingerprint);
    for (Change change : inOrder) {
      if (change.version() == first) {
        continue;
      }
      KeyHash key = hasher.keyHash(change.element().key());
      KeyPartition.Entry entry = changed.computeIfAbsent(key,
          any -> throughFirst.get(key.partition()).find(key).orElseGet(() -> new KeyPartition.Entry(-1, 0)));
      if (change.opens()) {
        if (entry.openElements == Byte.MAX_VALUE) {
          // An entry keeps its count in a byte; the first version's keys are refused the same way.
          throw new KeySnapshot.NotContinuable("version " + change.version() + " opens more than " + Byte.MAX_VALUE
              + " elements under " + change.element().key());
        }
        entry.openElements++;
        entry.newest = KeySnapshot.OPEN;
        continue;
      }
      if (entry.openElements == 0) {
        throw new KeySnapshot.NotContinuable("version " + change.version() + " closes " + change.element().key() + ", which is not open");
      }
      entry.openElements--;
      if (entry.openElements == 0) {
        // The summaries diff consecutive listed versions: the one before the close referenced it.
        entry.newest = listed.lowerKey(change.version());
      }
    }
    return new ContinuedKeySnapshot(snapshot, listed, throughFirst, changed);
  }

  /**
   * The first new version against the snapshot's newest, key by key: a key it references is open
   * (with its elements there); an open entry whose key it does not reference closes, its newest
   * reference the snapshot's end; every other entry stays. Merged partition by partition in hash
   * order, with no object per key (the first version references every key of the table: ~810,000
   * on {@code huge-steady}).
   */
  private static List<KeyPartition> continueToFirst(KeySnapshot snapshot, long first, List<Change> changes)
      throws KeySnapshot.NotContinuable {
    int count = 0;
    for (Change change : changes) {
      count += change.version() == first ? 1 : 0;
    }
    long[] high = new long[count];
    long[] low = new long[count];
    KeyHasher hasher = new KeyHasher(snapshot.fingerprint());
    int at = 0;
    for (Change change : changes) {
      if (change.version() == first) {
        hasher.hash(change.element().key());
        high[at] = hasher.high();
        low[at] = hasher.low();
        at++;
      }
    }
    List<KeyPartition> referenced;
    try {
      referenced = KeyPartition.ofOpenHashes(high, low, count);
    } catch (IllegalStateException e) {
      throw new KeySnapshot.NotContinuable("version " + first + ": " + e.getMessage());
    }
    List<KeyPartition> throughFirst = new ArrayList<>();
    for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
      throughFirst.add(throughFirst(snapshot.partitions().get(partition), referenced.get(partition), snapshot.endVersion()));
    }
    return throughFirst;
  }

  /**
   * One partition of {@link #continueToFirst}: the first version's keys, open, in place of the
   * snapshot's entries of their hashes; a snapshot entry open at its end that the first version
   * does not reference closes there.
   */
  private static KeyPartition throughFirst(KeyPartition snapshot, KeyPartition referenced, long end) {
    return snapshot.withChanges(referenced, (merged, from, at) -> {
      boolean closes = from.newest[at] == KeySnapshot.OPEN;
      merged.add(from.high[at], from.low[at], closes ? end : from.newest[at], closes ? 0 : from.openElements[at]);
    });
  }

  private record Change(LedgerElement element, long version, boolean opens) {}
}
