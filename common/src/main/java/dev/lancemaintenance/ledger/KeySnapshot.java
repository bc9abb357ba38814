package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the versions a run kept with their files reference, per reference key: the newest of them
 * that references it ({@link #OPEN} when the newest version does), so that the next run can answer
 * each listed key from it and the versions new since, without the whole ledger (docs/ledger.md,
 * section 12; why it is exact: docs/cleanup-semantics.md, section 21).
 *
 * <p>A snapshot is a fact about manifests, not about a run: for its versions {@code S} (each with
 * the identity of its manifest and its commit time), every key a version of {@code S} references
 * has an entry. It stays true as long as those manifests are the ones listed ({@link #mismatch}).
 * Only certain references are entries: a snapshot is made only when no version of {@code S} holds
 * an uncertain one ({@link #fromLedger}), and a continuation through new versions that hold one
 * fails ({@link NotContinuable}).
 *
 * <p>Memory: 25 bytes per entry in {@link KeyHash#PARTITIONS} sorted partitions, plus one object
 * per key the new versions changed.
 */
public final class KeySnapshot {
  /** The {@code newest} of a key the snapshot's newest version references. */
  public static final long OPEN = LedgerState.OPEN;

  private final String fingerprint;
  private final DatasetRef dataset;
  private final List<LedgerVersion> versions;
  private final List<Partition> partitions;

  KeySnapshot(String fingerprint, DatasetRef dataset, List<LedgerVersion> versions, List<Partition> partitions) {
    this.fingerprint = Objects.requireNonNull(fingerprint, "fingerprint");
    this.dataset = Objects.requireNonNull(dataset, "dataset");
    this.versions = List.copyOf(versions);
    this.partitions = List.copyOf(partitions);
    if (this.versions.isEmpty()) {
      throw new IllegalArgumentException("a key snapshot describes at least the newest version");
    }
    for (int i = 1; i < this.versions.size(); i++) {
      if (this.versions.get(i).version() <= this.versions.get(i - 1).version()) {
        throw new IllegalArgumentException("versions must increase: " + this.versions.get(i).version());
      }
    }
    if (this.partitions.size() != KeyHash.PARTITIONS) {
      throw new IllegalArgumentException("a key snapshot has " + KeyHash.PARTITIONS + " partitions: " + partitions.size());
    }
  }

  public String fingerprint() {
    return fingerprint;
  }

  public DatasetRef dataset() {
    return dataset;
  }

  /** The versions it describes ({@code S}), in order, with their manifests' identities and commit times. */
  public List<LedgerVersion> versions() {
    return versions;
  }

  /** The newest version it describes ({@code L}): what {@link #OPEN} stands for. */
  public long endVersion() {
    return versions.get(versions.size() - 1).version();
  }

  List<Partition> partitions() {
    return partitions;
  }

  /** Its entries, all partitions. */
  public long entries() {
    return partitions.stream().mapToLong(Partition::size).sum();
  }

  /**
   * The snapshot of the versions {@code kept} from a folded ledger, or empty when one of them
   * holds an uncertain reference (its mark could be {@code KEPT_IF_PRESENT}, which an entry does
   * not express): the next run then takes today's path. Each element's range {@code [from, to)}
   * holds exactly the listed versions that reference it (cleanup-semantics.md, section 13, step
   * 3), so the newest kept version inside its ranges is the newest kept version referencing it.
   *
   * @param kept the versions the run keeps with their files: summarised, including the ledger's end
   */
  public static Optional<KeySnapshot> fromLedger(LedgerState state, Set<Long> kept) {
    long end = state.endVersion();
    if (!kept.contains(end)) {
      throw new IllegalArgumentException("the ledger's end version " + end + " is always kept");
    }
    List<LedgerVersion> versions = new ArrayList<>();
    for (long version : new TreeSet<>(kept)) {
      LedgerVersion summarised = state.versions().get(version);
      if (summarised == null) {
        throw new IllegalArgumentException("version " + version + " is not in the ledger");
      }
      versions.add(summarised);
    }
    long[] sortedKept = versions.stream().mapToLong(LedgerVersion::version).toArray();
    Map<KeyHash, Entry> entries = new HashMap<>();
    for (LedgerState.Range range : state.ranges()) {
      long newest = range.to() == LedgerState.OPEN ? OPEN : newestBelow(sortedKept, range.to());
      if (newest != OPEN && newest < range.from()) {
        continue; // no kept version references it in this range
      }
      if (!range.element().certain()) {
        return Optional.empty();
      }
      Entry entry = entries.computeIfAbsent(KeyHash.of(state.fingerprint(), range.element().key()), any -> new Entry(-1, 0));
      entry.newest = Math.max(entry.newest, newest);
      if (newest == OPEN) {
        entry.openElements++;
      }
    }
    return Optional.of(new KeySnapshot(state.fingerprint(), state.dataset(), versions, Partition.of(entries)));
  }

  /** The largest of {@code sorted} below {@code bound}, or -1. */
  private static long newestBelow(long[] sorted, long bound) {
    int at = Arrays.binarySearch(sorted, bound);
    int below = (at >= 0 ? at : -at - 1) - 1;
    return below >= 0 ? sorted[below] : -1;
  }

  /**
   * Why this snapshot cannot answer for a run whose dataset lists {@code listed} (in version
   * order): the listed versions at or below its end must be exactly its versions, each the very
   * manifest recorded (name, length, modification time). Anything else (a version of {@code S}
   * removed by any cleanup, one the previous run expired still there, one new under an old number,
   * a manifest replaced) means its versions are not the ones listed, and the run takes today's path.
   */
  public Optional<String> mismatch(List<ManifestLocation> listed) {
    List<ManifestLocation> old = listed.stream().filter(location -> location.version() <= endVersion()).toList();
    if (old.size() != versions.size()) {
      return Optional.of(old.size() + " versions are listed at or below " + endVersion() + ", the snapshot describes "
          + versions.size());
    }
    for (int i = 0; i < old.size(); i++) {
      LedgerVersion recorded = versions.get(i);
      if (old.get(i).version() != recorded.version() || !recorded.summarises(old.get(i))) {
        return Optional.of(old.get(i).path() + " is not the manifest the snapshot recorded for version " + recorded.version());
      }
    }
    return Optional.empty();
  }

  /** A continuation the snapshot cannot make: the run takes today's path. */
  public static final class NotContinuable extends Exception {
    NotContinuable(String message) {
      super(message);
    }
  }

  /**
   * The snapshot carried through the versions new since its end. {@code changes} summarises them as
   * the ledger's first run does ({@link VersionSummaries}, joined, no base): the first new version
   * opens everything it references, each later one what it opens and closes against the one before.
   * The first is compared with the snapshot's newest version by key (its open entries), which is all
   * a mark needs, so no older manifest is decoded. Afterwards each key's {@code newest} is the
   * newest of the snapshot's versions and the new ones that references it, {@link #OPEN} when the
   * newest new version does.
   *
   * @throws NotContinuable when a new version references a key through an uncertain place, or the
   *     changes do not continue the snapshot (a version not newer than its end, a close of a key
   *     that is not open)
   */
  public Continued continueWith(LedgerSegment changes) throws NotContinuable {
    if (!changes.fingerprint().equals(fingerprint) || !changes.dataset().equals(dataset)) {
      throw new NotContinuable("the summary describes another table or dataset");
    }
    TreeMap<Long, LedgerVersion> listed = new TreeMap<>();
    versions.forEach(version -> listed.put(version.version(), version));
    long previous = endVersion();
    for (LedgerVersion version : changes.versions()) {
      if (version.version() <= previous) {
        throw new NotContinuable("version " + version.version() + " does not follow " + previous);
      }
      previous = version.version();
      listed.put(version.version(), version);
    }
    Map<KeyHash, Entry> changed = new HashMap<>();
    if (changes.versions().isEmpty()) {
      if (!changes.opens().isEmpty() || !changes.closes().isEmpty()) {
        throw new NotContinuable("changes without a new version");
      }
      return new Continued(listed, changed);
    }
    long first = changes.versions().get(0).version();
    List<Change> inOrder = new ArrayList<>();
    changes.closes().forEach(close -> inOrder.add(new Change(close.element(), close.atVersion(), false)));
    changes.opens().forEach(open -> inOrder.add(new Change(open.element(), open.fromVersion(), true)));
    for (Change change : inOrder) {
      if (!change.element().certain()) {
        throw new NotContinuable("version " + change.version() + " references " + change.element().key()
            + " through a place that may be another table's");
      }
      if (!listed.containsKey(change.version()) || change.version() < first || (change.version() == first && !change.opens())) {
        throw new NotContinuable("a change at version " + change.version() + ", which the new versions do not summarise");
      }
    }
    continueToFirst(first, inOrder, changed);
    // Closes before opens at one version, as the fold applies them (a key left and taken back).
    inOrder.sort(Comparator.comparingLong(Change::version).thenComparing(Change::opens));
    for (Change change : inOrder) {
      if (change.version() == first) {
        continue;
      }
      KeyHash key = KeyHash.of(fingerprint, change.element().key());
      Entry entry = changed.computeIfAbsent(key, any -> find(key).orElseGet(() -> new Entry(-1, 0)));
      if (change.opens()) {
        entry.openElements++;
        entry.newest = OPEN;
        continue;
      }
      if (entry.openElements == 0) {
        throw new NotContinuable("version " + change.version() + " closes " + change.element().key() + ", which is not open");
      }
      entry.openElements--;
      if (entry.openElements == 0) {
        // The summaries diff consecutive listed versions: the one before the close referenced it.
        entry.newest = listed.lowerKey(change.version());
      }
    }
    return new Continued(listed, changed);
  }

  /**
   * The first new version against the snapshot's newest, key by key: a key it references is open
   * (with its elements there); an open entry whose key it does not reference closes, its newest
   * reference the snapshot's end.
   */
  private void continueToFirst(long first, List<Change> changes, Map<KeyHash, Entry> changed) {
    Map<KeyHash, Integer> referenced = new HashMap<>();
    for (Change change : changes) {
      if (change.version() == first) {
        referenced.merge(KeyHash.of(fingerprint, change.element().key()), 1, Integer::sum);
      }
    }
    for (Partition partition : partitions) {
      for (int at = 0; at < partition.size(); at++) {
        if (partition.newest[at] == OPEN && !referenced.containsKey(partition.hashAt(at))) {
          changed.put(partition.hashAt(at), new Entry(endVersion(), 0));
        }
      }
    }
    referenced.forEach((key, elements) -> changed.put(key, new Entry(OPEN, elements)));
  }

  private record Change(LedgerElement element, long version, boolean opens) {}

  /** A copy of the entry of {@code key}, if it has one. */
  private Optional<Entry> find(KeyHash key) {
    return partitions.get(key.partition()).find(key).map(Entry::copy);
  }

  /**
   * A snapshot carried through the new versions: which listed versions keep their files decides
   * each key's answer ({@link #answers}).
   */
  public final class Continued {
    private final TreeMap<Long, LedgerVersion> listed;
    private final Map<KeyHash, Entry> changed;

    private Continued(TreeMap<Long, LedgerVersion> listed, Map<KeyHash, Entry> changed) {
      this.listed = listed;
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
      long first = firstOfKeptTail(keepFiles);
      NavigableSet<Long> islands = new TreeSet<>();
      keepFiles.stream().filter(version -> version < first).forEach(islands::add);
      return islands;
    }

    private long firstOfKeptTail(Set<Long> keepFiles) {
      if (!listed.keySet().containsAll(keepFiles)) {
        throw new IllegalArgumentException("a version that keeps its files is not listed: " + keepFiles);
      }
      long first = OPEN;
      for (long version : listed.descendingKeySet()) {
        if (!keepFiles.contains(version)) {
          break;
        }
        first = version;
      }
      if (first == OPEN) {
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
    public Answers answers(Set<Long> keepFiles, Map<Long, ? extends Collection<String>> islandReferences) {
      long first = firstOfKeptTail(keepFiles);
      if (!islandReferences.keySet().equals(islands(keepFiles))) {
        throw new IllegalArgumentException("island references for " + islandReferences.keySet() + ", islands "
            + islands(keepFiles));
      }
      Map<KeyHash, Long> newestIsland = new HashMap<>();
      islandReferences.forEach((island, keys) -> keys.forEach(key ->
          newestIsland.merge(KeyHash.of(fingerprint, key), island, Math::max)));
      List<LedgerVersion> kept = listed.values().stream().filter(version -> keepFiles.contains(version.version())).toList();
      return new Answers(first, newestIsland, changed, kept);
    }
  }

  /**
   * Each key's mark, as the full mark stage would give it for this run, and the referenced-files
   * gate as a count: every entry answered {@code KEPT} must be met by a listed key
   * ({@link #markOfListed}) before {@link #everyKeptKeyListed} holds. Safe for concurrent decide
   * tasks.
   */
  public final class Answers {
    private final long firstOfKeptTail;
    private final Map<KeyHash, Long> newestIsland;
    private final Map<KeyHash, Entry> changed;
    private final List<LedgerVersion> kept;
    /**
     * Per partition, a bit per entry a listed key met: set without a lock (decide tasks on several
     * threads meet entries of every partition), read once every task ended.
     */
    private final AtomicLongArray[] listedEntries = new AtomicLongArray[KeyHash.PARTITIONS];

    /** The changed entries of each partition, in hash order: walked beside the partition's own. */
    private final List<List<Map.Entry<KeyHash, Entry>>> changedByPartition = new ArrayList<>();

    private Answers(long firstOfKeptTail, Map<KeyHash, Long> newestIsland, Map<KeyHash, Entry> changed, List<LedgerVersion> kept) {
      this.firstOfKeptTail = firstOfKeptTail;
      this.newestIsland = newestIsland;
      this.changed = changed;
      this.kept = kept;
      for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
        changedByPartition.add(new ArrayList<>());
      }
      changed.entrySet().forEach(entry -> changedByPartition.get(entry.getKey().partition()).add(entry));
      changedByPartition.forEach(entries -> entries.sort(Map.Entry.comparingByKey()));
      for (int partition = 0; partition < KeyHash.PARTITIONS; partition++) {
        listedEntries[partition] = new AtomicLongArray((partitions.get(partition).size() + Long.SIZE - 1) / Long.SIZE);
      }
    }

    /** The mark of a key no listing need meet (for tests and {@code verify}). */
    public Optional<MarkState> markOf(String key) {
      return markOf(KeyHash.of(fingerprint, key));
    }

    /** The mark of a listed file's reference key; records that the listing holds it. */
    public Optional<MarkState> markOfListed(String key) {
      return Optional.ofNullable(markOf(KeyHash.of(fingerprint, key), true));
    }

    /**
     * Whether a listed file's reference key is answered {@code KEPT}; records that the listing holds
     * it, as {@link #markOfListed} does. The decision of such a file is settled: a version this run
     * keeps references it, so it stays whatever its kind, age or attributes, and nothing about it is
     * recorded for a resume ({@code DecideByPath.decideAndRecord} records only files that go or are
     * kept for their age). The listing calls this for every name, so that only the others travel on.
     */
    public boolean keptListed(String key) {
      return markOf(KeyHash.of(fingerprint, key), true) == MarkState.KEPT;
    }

    private Optional<MarkState> markOf(KeyHash hash) {
      return Optional.ofNullable(markOf(hash, false));
    }

    /** The key's mark, or null when no listed version references it. */
    private MarkState markOf(KeyHash hash, boolean listed) {
      long newest;
      Entry entry = changed.get(hash);
      if (entry != null) {
        if (listed) {
          synchronized (entry) {
            entry.listed = true;
          }
        }
        newest = entry.newest;
      } else {
        Partition partition = partitions.get(hash.partition());
        int at = partition.indexOf(hash);
        if (at < 0) {
          return null; // no listed version references it
        }
        if (listed) {
          long bit = 1L << at;
          listedEntries[hash.partition()].getAndAccumulate(at / Long.SIZE, bit, (word, mask) -> word | mask);
        }
        newest = partition.newest[at];
      }
      if (newest < 0) {
        return null;
      }
      return keeps(hash, newest) ? MarkState.KEPT : MarkState.EXPIRED;
    }

    /**
     * Whether a version that keeps its files references a key whose newest listed reference is
     * {@code newest}: every listed version from {@link #firstOfKeptTail} on keeps its files, and
     * below it only the islands do.
     */
    private boolean keeps(KeyHash hash, long newest) {
      return newest == OPEN || newest >= firstOfKeptTail || newestIsland.containsKey(hash);
    }

    private boolean keeps(long high, long low, long newest) {
      return newest == OPEN || newest >= firstOfKeptTail
          || (!newestIsland.isEmpty() && newestIsland.containsKey(new KeyHash(high, low)));
    }

    /**
     * Whether {@code key} is answered {@code KEPT} and no listed key met it: one the referenced-files
     * gate counts as missing. Asked only to name the missing keys in the gate's refusal, once every
     * decide task ended.
     */
    public boolean keptAndUnlisted(String key) {
      KeyHash hash = KeyHash.of(fingerprint, key);
      Entry entry = changed.get(hash);
      if (entry != null) {
        synchronized (entry) {
          return entry.newest >= 0 && !entry.listed && keeps(hash, entry.newest);
        }
      }
      Partition partition = partitions.get(hash.partition());
      int at = partition.indexOf(hash);
      return at >= 0 && partition.newest[at] >= 0 && keeps(hash, partition.newest[at])
          && (listedEntries[hash.partition()].get(at / Long.SIZE) & (1L << at)) == 0;
    }

    /** The entries answered {@code KEPT}: the keys the listing must hold. */
    public long keptEntries() {
      return entriesAnswered(true);
    }

    /** The entries answered {@code EXPIRED}; with {@link #keptEntries}, every key some listed version references. */
    public long expiredEntries() {
      return entriesAnswered(false);
    }

    private long entriesAnswered(boolean kept) {
      long[] count = new long[1];
      forEachEntry((high, low, newest, openElements, listed) -> {
        if (keeps(high, low, newest) == kept) {
          count[0]++;
        }
      });
      return count[0];
    }

    /** The entries answered {@code KEPT} that a listed key met. */
    public long keptEntriesListed() {
      long[] count = new long[1];
      forEachEntry((high, low, newest, openElements, listed) -> {
        if (listed && keeps(high, low, newest)) {
          count[0]++;
        }
      });
      return count[0];
    }

    /** What {@link #forEachEntry} hands over of one entry. */
    private interface EntryVisitor {
      void visit(long high, long low, long newest, int openElements, boolean listed);
    }

    /**
     * Every entry of the continued snapshot in hash order, partition by partition: the snapshot's
     * own, a changed one in place of the snapshot's with the same hash, without making an object
     * per entry (at ~920,000 entries the run walks them three times).
     */
    private void forEachEntry(EntryVisitor visitor) {
      for (int index = 0; index < KeyHash.PARTITIONS; index++) {
        Partition partition = partitions.get(index);
        List<Map.Entry<KeyHash, Entry>> changedHere = changedByPartition.get(index);
        AtomicLongArray listed = listedEntries[index];
        int at = 0;
        int next = 0;
        while (at < partition.size() || next < changedHere.size()) {
          int order = at == partition.size() ? 1 : next == changedHere.size() ? -1 : KeyHash.compare(
              partition.high[at], partition.low[at], changedHere.get(next).getKey().high(), changedHere.get(next).getKey().low());
          if (order < 0) {
            visitor.visit(partition.high[at], partition.low[at], partition.newest[at], partition.openElements[at],
                (listed.get(at / Long.SIZE) & (1L << at)) != 0);
            at++;
            continue;
          }
          KeyHash hash = changedHere.get(next).getKey();
          Entry entry = changedHere.get(next).getValue();
          if (entry.newest >= 0) {
            visitor.visit(hash.high(), hash.low(), entry.newest, entry.openElements, entry.listed);
          }
          at += order == 0 ? 1 : 0;
          next++;
        }
      }
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
    public KeySnapshot next() {
      List<PartitionBuilder> built = new ArrayList<>();
      for (int index = 0; index < KeyHash.PARTITIONS; index++) {
        built.add(new PartitionBuilder(partitions.get(index).size() + changedByPartition.get(index).size()));
      }
      forEachEntry((high, low, newest, openElements, listed) -> {
        PartitionBuilder partition = built.get(KeyHash.partitionOf(high));
        if (newest == OPEN || newest >= firstOfKeptTail) {
          partition.add(high, low, newest, openElements);
          return;
        }
        Long island = newestIsland.isEmpty() ? null : newestIsland.get(new KeyHash(high, low));
        if (island != null) {
          partition.add(high, low, island, 0);
        }
      });
      return new KeySnapshot(fingerprint, dataset, kept, built.stream().map(PartitionBuilder::build).toList());
    }
  }

  /** A partition's entries added in hash order. */
  private static final class PartitionBuilder {
    private final long[] high;
    private final long[] low;
    private final long[] newest;
    private final byte[] openElements;
    private int size;

    PartitionBuilder(int capacity) {
      high = new long[capacity];
      low = new long[capacity];
      newest = new long[capacity];
      openElements = new byte[capacity];
    }

    void add(long high, long low, long newest, int openElements) {
      this.high[size] = high;
      this.low[size] = low;
      this.newest[size] = newest;
      this.openElements[size] = (byte) openElements;
      size++;
    }

    Partition build() {
      return new Partition(Arrays.copyOf(high, size), Arrays.copyOf(low, size), Arrays.copyOf(newest, size),
          Arrays.copyOf(openElements, size));
    }
  }

  /** One key's state while a snapshot is built or continued. */
  static final class Entry {
    /** The newest version referencing the key, {@link #OPEN}, or -1 for none yet. */
    long newest;
    int openElements;
    boolean listed;

    Entry(long newest, int openElements) {
      this.newest = newest;
      this.openElements = openElements;
    }

    Entry copy() {
      return new Entry(newest, openElements);
    }
  }

  /** One partition's entries, sorted by hash: 25 bytes each. */
  static final class Partition {
    final long[] high;
    final long[] low;
    final long[] newest;
    final byte[] openElements;

    Partition(long[] high, long[] low, long[] newest, byte[] openElements) {
      this.high = high;
      this.low = low;
      this.newest = newest;
      this.openElements = openElements;
    }

    static List<Partition> of(Map<KeyHash, Entry> entries) {
      List<List<Map.Entry<KeyHash, Entry>>> byPartition = new ArrayList<>();
      for (int i = 0; i < KeyHash.PARTITIONS; i++) {
        byPartition.add(new ArrayList<>());
      }
      entries.entrySet().forEach(entry -> byPartition.get(entry.getKey().partition()).add(entry));
      List<Partition> partitions = new ArrayList<>();
      for (List<Map.Entry<KeyHash, Entry>> part : byPartition) {
        part.sort(Map.Entry.comparingByKey());
        int size = part.size();
        Partition partition = new Partition(new long[size], new long[size], new long[size], new byte[size]);
        for (int at = 0; at < size; at++) {
          Map.Entry<KeyHash, Entry> entry = part.get(at);
          if (entry.getValue().openElements > Byte.MAX_VALUE) {
            throw new IllegalStateException("more than " + Byte.MAX_VALUE + " open elements under one key");
          }
          partition.high[at] = entry.getKey().high();
          partition.low[at] = entry.getKey().low();
          partition.newest[at] = entry.getValue().newest;
          partition.openElements[at] = (byte) entry.getValue().openElements;
        }
        partitions.add(partition);
      }
      return partitions;
    }

    int size() {
      return high.length;
    }

    KeyHash hashAt(int at) {
      return new KeyHash(high[at], low[at]);
    }

    /**
     * The index of {@code hash}, or a negative number when it has no entry. The hashes are uniform,
     * so the next {@value #BUCKET_BITS} bits after the partition's narrow the search to a bucket of a
     * few entries (about 14 at ~57,000 a partition), a cache line or two instead of a binary search's
     * sixteen misses over the whole partition.
     */
    int indexOf(KeyHash hash) {
      int[] starts = bucketStarts();
      int bucket = bucketOf(hash.high());
      int from = starts[bucket];
      int to = starts[bucket + 1] - 1;
      while (from <= to) {
        int middle = (from + to) >>> 1;
        int order = KeyHash.compare(high[middle], low[middle], hash.high(), hash.low());
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
    private int[] bucketStarts() {
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

    Optional<Entry> find(KeyHash hash) {
      int at = indexOf(hash);
      return at < 0 ? Optional.empty() : Optional.of(new Entry(newest[at], openElements[at]));
    }
  }
}
