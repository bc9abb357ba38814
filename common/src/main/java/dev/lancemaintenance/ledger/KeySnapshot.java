package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

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
 * <p>Memory: 25 bytes per entry in {@link KeyHash#PARTITIONS} sorted partitions ({@link
 * KeyPartition}). Carried through the versions new since ({@link ContinuedKeySnapshot}), it answers
 * each listed key for one run ({@link KeySnapshotAnswers}).
 */
public final class KeySnapshot {
  /** The {@code newest} of a key the snapshot's newest version references. */
  public static final long OPEN = LedgerState.OPEN;

  private final String fingerprint;
  private final DatasetRef dataset;
  private final List<LedgerVersion> versions;
  private final List<KeyPartition> partitions;

  KeySnapshot(String fingerprint, DatasetRef dataset, List<LedgerVersion> versions, List<KeyPartition> partitions) {
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

  List<KeyPartition> partitions() {
    return partitions;
  }

  /** Its entries, all partitions. */
  public long entries() {
    return partitions.stream().mapToLong(KeyPartition::size).sum();
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
    References references = new References();
    KeyHasher hasher = new KeyHasher(state.fingerprint());
    boolean everyKeptReferenceCertain = state.forEachRange((element, from, to) -> {
      long newest = to == LedgerState.OPEN ? OPEN : newestBelow(sortedKept, to);
      if (newest != OPEN && newest < from) {
        return true; // no kept version references it in this range
      }
      if (!element.certain()) {
        return false; // an uncertain reference: no snapshot
      }
      hasher.hash(element.key());
      references.add(hasher.high(), hasher.low(), newest);
      return true;
    });
    if (!everyKeptReferenceCertain) {
      return Optional.empty();
    }
    return Optional.of(new KeySnapshot(state.fingerprint(), state.dataset(), versions,
        KeyPartition.ofReferences(references.high, references.low, references.newest, references.count)));
  }

  /** The kept ranges' keys and newest versions, in growing arrays: no object per range. */
  private static final class References {
    private long[] high = new long[1024];
    private long[] low = new long[1024];
    private long[] newest = new long[1024];
    private int count;

    void add(long keyHigh, long keyLow, long newestVersion) {
      if (count == high.length) {
        int grown = Math.max(count + 1, count + (count >> 1));
        high = Arrays.copyOf(high, grown);
        low = Arrays.copyOf(low, grown);
        newest = Arrays.copyOf(newest, grown);
      }
      high[count] = keyHigh;
      low[count] = keyLow;
      newest[count] = newestVersion;
      count++;
    }
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
   * The snapshot carried through the versions new since its end ({@link ContinuedKeySnapshot#of}).
   *
   * @throws NotContinuable when a new version references a key through an uncertain place, or the
   *     changes do not continue the snapshot
   */
  public ContinuedKeySnapshot continueWith(LedgerSegment changes) throws NotContinuable {
    return ContinuedKeySnapshot.of(this, changes);
  }
}
