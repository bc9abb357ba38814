package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileReference;
import dev.lancemaintenance.format.ReferenceGroup;
import dev.lancemaintenance.format.ScannedManifest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The elements one manifest references, carried from each manifest to the next by the reference
 * groups that changed between them, so that summarising a version costs what the version changed,
 * not what the table holds.
 *
 * <p>A {@link dev.lancemaintenance.format.ReferenceScanner} hands out the same {@link
 * ReferenceGroup} object for a fragment that consecutive manifests repeat, so the groups of two
 * manifests split, by identity, into those both hold, those only the older holds (gone) and those
 * only the newer holds (new). An element may sit in more than one group (a delete rewrites a
 * fragment, and so its group, but keeps its data file; the manifest's own group names indices that
 * fragments do not), so each element carries a count: how many references to it the current
 * manifest's groups hold. The element is referenced exactly while its count is above zero. Moving to the next manifest adds the new groups' counts first, then takes off the gone
 * groups'; an element whose count leaves zero is opened, one whose count reaches zero is closed.
 *
 * <p>Why that is the set difference of the two manifests' elements, exactly: after the move every
 * count is the number of references to the element in the newer manifest's groups (the groups both
 * hold are counted once before and after, the gone ones are taken off, the new ones added), so an
 * element has a count above zero exactly when the newer manifest references it. Adding before
 * taking off means a count passes through zero only when it ends there: an element at zero before
 * is in no gone group (gone groups are groups of the older manifest), so it only rises; one above
 * zero falls to zero only by the last subtraction, with nothing added. So an element is opened
 * exactly when the older manifest did not reference it and the newer does, and closed exactly in
 * the reverse case. Treating a group as changed when it did not change only adds and takes off the
 * same references, which opens and closes nothing; so a scanner that reuses fewer groups (its
 * caches start over when base paths change) costs time, never exactness. The manifest's own group
 * (its indices and transaction file) is a new object every manifest and is handled that way.
 * {@code ReferencedElementsIT} summarises real tables both ways and requires the same opens and
 * closes.
 *
 * <p>Memory: one count per element of the current manifest and its list of groups. Not thread-safe.
 */
final class ReferencedElements {
  private final DatasetRef dataset;
  private final Map<LedgerElement, Count> counts = new HashMap<>();
  private List<ReferenceGroup> groups = List.of();

  ReferencedElements(DatasetRef dataset) {
    this.dataset = dataset;
  }

  /**
   * Moves to {@code manifest} (scanned after the one this holds, or the first): hands each element
   * it references and the one before did not to {@code opened}, and each element the one before
   * referenced and it does not to {@code closed}, each once.
   */
  void moveTo(ScannedManifest manifest, Consumer<LedgerElement> opened, Consumer<LedgerElement> closed) {
    List<ReferenceGroup> next = manifest.groups();
    // The leading groups that are the very objects of the manifest before, in the same places: the
    // common case (fragments kept, one appended at the end). Identity is checked here, not taken
    // from the scanner's count, so nothing depends on which manifest the scanner met last.
    int shared = 0;
    while (shared < groups.size() && shared < next.size() && groups.get(shared) == next.get(shared)) {
      shared++;
    }
    // The older manifest's other groups, by identity and how often it held each.
    Map<ReferenceGroup, Integer> unmatched = new IdentityHashMap<>();
    List<ReferenceGroup> olderTail = groups.subList(shared, groups.size());
    olderTail.forEach(group -> unmatched.merge(group, 1, Integer::sum));
    List<ReferenceGroup> added = new ArrayList<>();
    for (ReferenceGroup group : next.subList(shared, next.size())) {
      // A group the older manifest held elsewhere (a fragment after a changed one) is still held.
      if (!takeOne(unmatched, group)) {
        added.add(group);
      }
    }
    for (ReferenceGroup group : added) {
      for (LedgerElement element : elementsOf(group)) {
        if (counts.computeIfAbsent(element, any -> new Count()).value++ == 0) {
          opened.accept(element);
        }
      }
    }
    // The gone groups in the older manifest's order, so that a summary's records come in one order.
    for (ReferenceGroup group : olderTail) {
      if (takeOne(unmatched, group)) {
        for (LedgerElement element : elementsOf(group)) {
          Count count = counts.get(element);
          if (--count.value == 0) {
            counts.remove(element);
            closed.accept(element);
          }
        }
      }
    }
    groups = next;
  }

  /** Takes one of {@code group}'s remaining places in {@code unmatched}; false when none is left. */
  private static boolean takeOne(Map<ReferenceGroup, Integer> unmatched, ReferenceGroup group) {
    Integer left = unmatched.get(group);
    if (left == null) {
      return false;
    }
    if (left == 1) {
      unmatched.remove(group);
    } else {
      unmatched.put(group, left - 1);
    }
    return true;
  }

  /** What the mark stage marks of a group: its references inside the dataset's managed directories. */
  private List<LedgerElement> elementsOf(ReferenceGroup group) {
    List<LedgerElement> elements = new ArrayList<>(group.references().size());
    for (FileReference reference : group.references()) {
      // The same filter as MarkManifests: a reference outside the dataset is never listed, never deleted.
      if (!reference.external() && ReferenceKeys.isInDataset(dataset, reference.path())) {
        elements.add(new LedgerElement(reference.path(), reference.kind(), reference.certain()));
      }
    }
    return elements;
  }

  /** A mutable count, so that a change costs one lookup. */
  private static final class Count {
    private int value;
  }
}
