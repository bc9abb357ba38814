package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fold as it was before stop 39 (main at 2949dc9, verbatim but for its name): maps of objects,
 * a list of changes sorted per segment. The reference {@code LedgerFoldEquivalenceTest} holds the
 * compact fold to. Kept as a test's model only; nothing in the main code uses it.
 *
 * <p>Original comment: the ledger folded: every summarised version, and for every element the version ranges in which
 * it was referenced. Built by applying a commit's segments in order; each segment must continue
 * where the fold stands (newer versions only, closes only of open elements), or the fold fails
 * with {@link LedgerFormatException} and the ledger is unusable.
 *
 * <p>Memory: one entry per summarised version still in the ledger and one per element range. A
 * compaction ({@link #compacted}) drops what no listed manifest can need any more, so the fold
 * grows with the files of the versions the table keeps, not with its history.
 */
final class ReferenceLedgerState {
  /** The {@code to} of a range still open at the ledger's end. */
  public static final long OPEN = Long.MAX_VALUE;

  private final String fingerprint;
  private final DatasetRef dataset;
  private final NavigableMap<Long, LedgerVersion> versions = new TreeMap<>();
  private final Map<LedgerElement, Long> openSince = new HashMap<>();
  private final List<Range> closed = new ArrayList<>();

  /** A range of versions {@code [from, to)} in which an element was referenced. */
  public record Range(LedgerElement element, long from, long to) {}

  public ReferenceLedgerState(String fingerprint, DatasetRef dataset) {
    this.fingerprint = fingerprint;
    this.dataset = dataset;
  }

  public String fingerprint() {
    return fingerprint;
  }

  public DatasetRef dataset() {
    return dataset;
  }

  /** The newest summarised version, or -1 when none is. */
  public long endVersion() {
    return versions.isEmpty() ? -1 : versions.lastKey();
  }

  /** The summarised versions by number. */
  public NavigableMap<Long, LedgerVersion> versions() {
    return Collections.unmodifiableNavigableMap(versions);
  }

  /** The elements the newest summarised version references. */
  public Set<LedgerElement> openElements() {
    return Collections.unmodifiableSet(openSince.keySet());
  }

  /** Every range, closed ones and those still open ({@code to == OPEN}). */
  public List<Range> ranges() {
    List<Range> all = new ArrayList<>(closed.size() + openSince.size());
    all.addAll(closed);
    openSince.forEach((element, from) -> all.add(new Range(element, from, OPEN)));
    return all;
  }

  /**
   * Applies the next segment; {@code name} is for the message. A segment whose first version is
   * whole is applied as {@link #joined} continues it.
   */
  public void apply(String name, LedgerSegment segment) {
    if (!segment.fingerprint().equals(fingerprint) || !segment.dataset().equals(dataset)) {
      throw new LedgerFormatException(name, "the segment describes another table or dataset");
    }
    if (segment.firstVersionWhole()) {
      segment = joined(segment);
    }
    long end = endVersion();
    for (LedgerVersion version : segment.versions()) {
      if (version.version() <= end) {
        throw new LedgerFormatException(name, "version " + version.version() + " does not follow version " + end);
      }
      end = version.version();
    }
    Set<Long> summarisedHere = new HashSet<>();
    segment.versions().forEach(version -> summarisedHere.add(version.version()));
    // In version order, closes before opens at one version: an element left and taken back at the
    // same version (a Restore), or a compacted segment's consecutive ranges, are two ranges.
    List<Change> changes = new ArrayList<>();
    segment.closes().forEach(close -> changes.add(new Change(close.element(), close.atVersion(), false)));
    segment.opens().forEach(open -> changes.add(new Change(open.element(), open.fromVersion(), true)));
    changes.sort(Comparator.comparingLong(Change::version).thenComparing(Change::opens));
    for (Change change : changes) {
      requireSummarised(name, summarisedHere, change.version(), change.element());
      if (change.opens()) {
        if (openSince.putIfAbsent(change.element(), change.version()) != null) {
          throw new LedgerFormatException(name, "opens " + change.element().key() + " at " + change.version()
              + " while it is open");
        }
        continue;
      }
      Long from = openSince.remove(change.element());
      if (from == null || change.version() <= from) {
        throw new LedgerFormatException(name, "closes " + change.element().key() + " at " + change.version()
            + " but it is not open before then");
      }
      closed.add(new Range(change.element(), from, change.version()));
    }
    segment.versions().forEach(version -> versions.put(version.version(), version));
  }

  private record Change(LedgerElement element, long version, boolean opens) {}

  /**
   * The segment of changes that continues this fold with {@code wholeFirst}, whose first version
   * opens everything it references: against the fold's newest references it opens what they lack
   * and closes what they have and it does not; its later versions' changes are kept as they are.
   * Exact whatever the fold held: the first version then references exactly what its own manifest
   * does (the one home of this join: {@link VersionSummaries#join}, a first run without base, and
   * a segment a run that decided from the key snapshot appended, docs/ledger.md section 12.4).
   */
  public LedgerSegment joined(LedgerSegment wholeFirst) {
    if (!wholeFirst.firstVersionWhole()) {
      throw new IllegalArgumentException("only a segment whose first version is whole is joined");
    }
    List<LedgerSegment.Open> opens = new ArrayList<>(wholeFirst.opens());
    List<LedgerSegment.Close> closes = new ArrayList<>(wholeFirst.closes());
    if (!wholeFirst.versions().isEmpty()) {
      long first = wholeFirst.versions().get(0).version();
      Set<LedgerElement> firstReferences = new HashSet<>();
      opens.stream().filter(open -> open.fromVersion() == first).forEach(open -> firstReferences.add(open.element()));
      opens.removeIf(open -> open.fromVersion() == first && openSince.containsKey(open.element()));
      openSince.keySet().stream().filter(element -> !firstReferences.contains(element))
          .forEach(element -> closes.add(new LedgerSegment.Close(element, first)));
    }
    return new LedgerSegment(fingerprint, dataset, wholeFirst.versions(), opens, closes);
  }

  private void requireSummarised(String name, Set<Long> summarisedHere, long version, LedgerElement element) {
    if (!summarisedHere.contains(version) && !versions.containsKey(version)) {
      throw new LedgerFormatException(name, "changes " + element.key() + " at version " + version
          + ", which no segment summarises");
    }
  }

  /**
   * The whole ledger as one segment, keeping only what a run can still need: versions whose
   * manifests are listed, the ranges containing one of them, and the open ranges (the newest
   * version's references, the base of the next summary). A range without a listed version can
   * never matter again: a manifest appearing later under one of its numbers is older than the
   * ledger's end, which makes the ledger unusable anyway ({@link IncrementalMark#mismatch}).
   */
  public LedgerSegment compacted(Set<Long> listedVersions) {
    List<LedgerVersion> keptVersions = new ArrayList<>();
    for (LedgerVersion version : versions.values()) {
      if (listedVersions.contains(version.version()) || version.version() == endVersion()) {
        keptVersions.add(version);
      }
    }
    Set<Long> kept = new HashSet<>();
    keptVersions.forEach(version -> kept.add(version.version()));
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    for (Range range : closed) {
      Long first = firstKeptIn(kept, range.from(), range.to());
      if (first != null) {
        // Re-anchored at its first kept version, so every change sits on a version the segment keeps.
        opens.add(new LedgerSegment.Open(range.element(), first));
        closes.add(new LedgerSegment.Close(range.element(), lastKeptBefore(kept, range.to())));
      }
    }
    openSince.forEach((element, from) -> opens.add(new LedgerSegment.Open(element, firstKeptIn(kept, from, OPEN))));
    return new LedgerSegment(fingerprint, dataset, keptVersions, opens, closes);
  }

  private Long firstKeptIn(Set<Long> kept, long from, long to) {
    for (Long version : versions.subMap(from, true, to, false).keySet()) {
      if (kept.contains(version)) {
        return version;
      }
    }
    return null;
  }

  /** The close of a re-anchored range: the first kept version at or after {@code to}. */
  private long lastKeptBefore(Set<Long> kept, long to) {
    for (Long version : versions.tailMap(to, true).keySet()) {
      if (kept.contains(version)) {
        return version;
      }
    }
    throw new IllegalStateException("a closed range ends before the ledger's end version, which is always kept");
  }
}
