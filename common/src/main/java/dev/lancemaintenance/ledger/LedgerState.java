package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The ledger folded: every summarised version, and for every element the version ranges in which
 * it was referenced. Built by applying a commit's segments in order; each segment must continue
 * where the fold stands (newer versions only, closes only of open elements), or the fold fails
 * with {@link LedgerFormatException} and the ledger is unusable.
 *
 * <p>Memory: one entry per summarised version still in the ledger, one instance and number per
 * element ({@link LedgerElements}), and per range numbers in arrays (8 bytes per element for where
 * its open range starts, 20 per closed range), no object per range or change: on a table with
 * ~920,000 files in its history, maps of records did not fit a 512 MB heap (docs/ledger.md, section
 * 7). A compaction ({@link #compacted}) drops what no listed manifest can need any more, so the fold
 * grows with the files of the versions the table keeps, not with its history.
 */
public final class LedgerState {
  /** The {@code to} of a range still open at the ledger's end. */
  public static final long OPEN = Long.MAX_VALUE;
  /** {@link #openFrom}'s mark of an element not referenced by the newest version. */
  private static final long NOT_OPEN = Long.MIN_VALUE;

  private final String fingerprint;
  private final DatasetRef dataset;
  private final NavigableMap<Long, LedgerVersion> versions = new TreeMap<>();
  /** Every element met, numbered: the ranges below hold numbers, one instance per element. */
  private final LedgerElements elements = new LedgerElements();
  /** Per element number, the version from which the newest version's reference runs, or {@link #NOT_OPEN}. */
  private long[] openFrom = new long[64];
  private int openCount;
  /** The closed ranges, in the order they closed, as three columns (20 bytes a range, no object). */
  private int[] closedElement = new int[64];
  private long[] closedFrom = new long[64];
  private long[] closedTo = new long[64];
  private int closedCount;

  /** A range of versions {@code [from, to)} in which an element was referenced. */
  public record Range(LedgerElement element, long from, long to) {}

  /** Takes one range of {@link #forEachRange}; returns false to stop. */
  @FunctionalInterface
  public interface RangeVisitor {
    boolean visit(LedgerElement element, long from, long to);
  }

  public LedgerState(String fingerprint, DatasetRef dataset) {
    this.fingerprint = fingerprint;
    this.dataset = dataset;
    Arrays.fill(openFrom, NOT_OPEN);
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

  /** The elements the newest summarised version references (a view, in the order they were first met). */
  public Set<LedgerElement> openElements() {
    return new AbstractSet<>() {
      @Override
      public Iterator<LedgerElement> iterator() {
        return new Iterator<>() {
          private int next = nextOpen(0);

          @Override
          public boolean hasNext() {
            return next < elements.size();
          }

          @Override
          public LedgerElement next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            LedgerElement element = elements.get(next);
            next = nextOpen(next + 1);
            return element;
          }
        };
      }

      @Override
      public boolean contains(Object element) {
        return element instanceof LedgerElement known && isOpen(elements.find(known));
      }

      @Override
      public int size() {
        return openCount;
      }
    };
  }

  private int nextOpen(int from) {
    int id = from;
    while (id < elements.size() && openFrom[id] == NOT_OPEN) {
      id++;
    }
    return id;
  }

  private boolean isOpen(int id) {
    return id >= 0 && openFrom[id] != NOT_OPEN;
  }

  /**
   * Hands every range to {@code visitor}, the closed ones in the order they closed, then those still
   * open ({@code to == OPEN}), until it returns false. No object per range: the consumers of a
   * whole fold ({@link IncrementalMark}, {@link KeySnapshot#fromLedger}) take them this way.
   *
   * @return whether every range was visited (false when the visitor stopped)
   */
  public boolean forEachRange(RangeVisitor visitor) {
    for (int i = 0; i < closedCount; i++) {
      if (!visitor.visit(elements.get(closedElement[i]), closedFrom[i], closedTo[i])) {
        return false;
      }
    }
    for (int id = nextOpen(0); id < elements.size(); id = nextOpen(id + 1)) {
      if (!visitor.visit(elements.get(id), openFrom[id], OPEN)) {
        return false;
      }
    }
    return true;
  }

  /** Every range, closed ones and those still open ({@code to == OPEN}), as a new list: for small folds and tests. */
  public List<Range> ranges() {
    List<Range> all = new ArrayList<>(closedCount + openCount);
    forEachRange((element, from, to) -> all.add(new Range(element, from, to)));
    return all;
  }

  /** The one instance of {@code element} this fold holds, which becomes it when the fold has none. */
  LedgerElement canonical(LedgerElement element) {
    return elements.get(idOf(element));
  }

  /**
   * What {@code decode} gives when handed {@link #canonical}: a segment decoded with this fold's
   * instance of each element. When it throws (a segment refused), the elements first met in it are
   * forgotten again, so a refused segment leaves the fold as if it had never been read: a segment
   * read as a stream ({@link SegmentReader}) is decoded before its checksum is known, and an element
   * only a damaged record named would otherwise stay numbered, ahead of the order in which later
   * segments meet the elements (the order of {@link #openElements} and of what {@link #joined} and
   * {@link #compacted} write).
   */
  LedgerSegment decodeCanonical(Function<UnaryOperator<LedgerElement>, LedgerSegment> decode) {
    int known = elements.size();
    try {
      return decode.apply(this::canonical);
    } catch (RuntimeException refused) {
      elements.forgetFrom(known);
      throw refused;
    }
  }

  private int idOf(LedgerElement element) {
    int id = elements.intern(element);
    growOpenFrom();
    return id;
  }

  /** Keeps {@link #openFrom} as long as the element table, new elements not open. */
  private void growOpenFrom() {
    if (openFrom.length < elements.size()) {
      int old = openFrom.length;
      openFrom = Arrays.copyOf(openFrom, Math.max(elements.size(), old + (old >> 1)));
      Arrays.fill(openFrom, old, openFrom.length, NOT_OPEN);
    }
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
    long[] summarisedHere = new long[segment.versions().size()];
    int at = 0;
    for (LedgerVersion version : segment.versions()) {
      if (version.version() <= end) {
        throw new LedgerFormatException(name, "version " + version.version() + " does not follow version " + end);
      }
      end = version.version();
      summarisedHere[at++] = end;
    }
    // In version order, closes before opens at one version: an element left and taken back at the
    // same version (a Restore), or a compacted segment's consecutive ranges, are two ranges. Each
    // list is taken in a stable version order and the two merged, closes first on a tie: the order
    // a stable sort of all changes by (version, opens) gives, without an object per change.
    List<LedgerSegment.Open> opens = segment.opens();
    List<LedgerSegment.Close> closes = segment.closes();
    int[] openOrder = StableOrder.of(opens.size(), i -> opens.get(i).fromVersion());
    int[] closeOrder = StableOrder.of(closes.size(), i -> closes.get(i).atVersion());
    int nextOpen = 0;
    int nextClose = 0;
    while (nextOpen < openOrder.length || nextClose < closeOrder.length) {
      boolean closeNext = nextClose < closeOrder.length && (nextOpen == openOrder.length
          || closes.get(closeOrder[nextClose]).atVersion() <= opens.get(openOrder[nextOpen]).fromVersion());
      if (closeNext) {
        LedgerSegment.Close close = closes.get(closeOrder[nextClose++]);
        close(name, summarisedHere, close.element(), close.atVersion());
      } else {
        LedgerSegment.Open open = opens.get(openOrder[nextOpen++]);
        open(name, summarisedHere, open.element(), open.fromVersion());
      }
    }
    segment.versions().forEach(version -> versions.put(version.version(), version));
  }

  private void open(String name, long[] summarisedHere, LedgerElement element, long version) {
    requireSummarised(name, summarisedHere, version, element);
    int id = idOf(element);
    if (openFrom[id] != NOT_OPEN) {
      throw new LedgerFormatException(name, "opens " + element.key() + " at " + version + " while it is open");
    }
    openFrom[id] = version;
    openCount++;
  }

  private void close(String name, long[] summarisedHere, LedgerElement element, long version) {
    requireSummarised(name, summarisedHere, version, element);
    int id = elements.find(element);
    if (!isOpen(id) || version <= openFrom[id]) {
      throw new LedgerFormatException(name, "closes " + element.key() + " at " + version
          + " but it is not open before then");
    }
    if (closedCount == closedElement.length) {
      int grown = closedCount + (closedCount >> 1);
      closedElement = Arrays.copyOf(closedElement, grown);
      closedFrom = Arrays.copyOf(closedFrom, grown);
      closedTo = Arrays.copyOf(closedTo, grown);
    }
    closedElement[closedCount] = id;
    closedFrom[closedCount] = openFrom[id];
    closedTo[closedCount] = version;
    closedCount++;
    openFrom[id] = NOT_OPEN;
    openCount--;
  }

  /**
   * The segment of changes that continues this fold with {@code wholeFirst}, whose first version
   * opens everything it references: against the fold's newest references it opens what they lack
   * and closes what they have and it does not; its later versions' changes are kept as they are.
   * Exact whatever the fold held: the first version then references exactly what its own manifest
   * does (the one home of this join: {@link VersionSummaries#join}, a first run without base, and
   * a segment a run that decided from the key snapshot appended, docs/ledger.md section 12.4).
   *
   * <p>Its records hold this fold's instance of each element ({@link #canonical}): a run's summaries
   * decode an element anew for its open and its close, and the joined segment lives until the
   * run's commit beside the fold.
   */
  public LedgerSegment joined(LedgerSegment wholeFirst) {
    if (!wholeFirst.firstVersionWhole()) {
      throw new IllegalArgumentException("only a segment whose first version is whole is joined");
    }
    boolean hasFirst = !wholeFirst.versions().isEmpty();
    long first = hasFirst ? wholeFirst.versions().get(0).version() : 0;
    BitSet firstReferences = new BitSet();
    List<LedgerSegment.Open> opens = new ArrayList<>(wholeFirst.opens().size());
    for (LedgerSegment.Open open : wholeFirst.opens()) {
      int id = idOf(open.element());
      if (hasFirst && open.fromVersion() == first) {
        firstReferences.set(id);
        if (isOpen(id)) {
          continue; // referenced before and by the first version: no change
        }
      }
      opens.add(new LedgerSegment.Open(elements.get(id), open.fromVersion()));
    }
    List<LedgerSegment.Close> closes = new ArrayList<>(wholeFirst.closes().size());
    for (LedgerSegment.Close close : wholeFirst.closes()) {
      closes.add(new LedgerSegment.Close(canonical(close.element()), close.atVersion()));
    }
    if (hasFirst) {
      for (int id = nextOpen(0); id < elements.size(); id = nextOpen(id + 1)) {
        if (!firstReferences.get(id)) {
          closes.add(new LedgerSegment.Close(elements.get(id), first));
        }
      }
    }
    return new LedgerSegment(fingerprint, dataset, wholeFirst.versions(), opens, closes);
  }

  private void requireSummarised(String name, long[] summarisedHere, long version, LedgerElement element) {
    if (Arrays.binarySearch(summarisedHere, version) < 0 && !versions.containsKey(version)) {
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
    for (int i = 0; i < closedCount; i++) {
      Long first = firstKeptIn(kept, closedFrom[i], closedTo[i]);
      if (first != null) {
        // Re-anchored at its first kept version, so every change sits on a version the segment keeps.
        opens.add(new LedgerSegment.Open(elements.get(closedElement[i]), first));
        closes.add(new LedgerSegment.Close(elements.get(closedElement[i]), lastKeptBefore(kept, closedTo[i])));
      }
    }
    for (int id = nextOpen(0); id < elements.size(); id = nextOpen(id + 1)) {
      opens.add(new LedgerSegment.Open(elements.get(id), firstKeptIn(kept, openFrom[id], OPEN)));
    }
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
