package dev.lancemaintenance.ledger;

import java.util.Arrays;

/**
 * One instance and a number per distinct {@link LedgerElement}, in the order they were first met.
 *
 * <p>Why: a ledger decodes an element once per record (its open, its close, each segment), each time
 * a new object with its own key string (~110 bytes for a {@code data/<uuid>.lance} key). On a table
 * with ~920,000 files in its history that alone filled a 512 MB heap (docs/ledger.md, section 7).
 * Numbering them lets the fold hold its ranges in arrays of numbers ({@link LedgerState}), and a
 * decoded record keeps the one instance. The table is open addressing over an {@code int[]} (4
 * bytes a slot, at most half full) instead of a map's entry objects (~50 bytes an element).
 *
 * <p>Not thread-safe; numbers are only meaningful for the table that gave them.
 */
final class LedgerElements {
  private LedgerElement[] elements = new LedgerElement[64];
  /** Element number + 1 per slot; 0 marks an empty slot. Its length is a power of two. */
  private int[] slots = new int[128];
  private int size;

  /** The number of distinct elements met. */
  int size() {
    return size;
  }

  /** The element numbered {@code id}. */
  LedgerElement get(int id) {
    return elements[id];
  }

  /** The number of {@code element}, numbering it when it is new. */
  int intern(LedgerElement element) {
    int slot = slotOf(element);
    if (slots[slot] != 0) {
      return slots[slot] - 1;
    }
    if (size == elements.length) {
      elements = Arrays.copyOf(elements, size + (size >> 1));
    }
    elements[size] = element;
    slots[slot] = ++size;
    if (size * 2 > slots.length) {
      rehash();
    }
    return size - 1;
  }

  /** The number of {@code element}, or -1 when it was never met. */
  int find(LedgerElement element) {
    int slot = slotOf(element);
    return slots[slot] - 1;
  }

  /** The one instance equal to {@code element}, which becomes it when none was met. */
  LedgerElement canonical(LedgerElement element) {
    int id = intern(element); // before reading the array, which interning may replace
    return elements[id];
  }

  /**
   * Forgets the elements numbered {@code size} and above, as if they had never been met: for a
   * segment refused after its elements were numbered ({@link LedgerState#decodeCanonical}). Costs a
   * pass over the table, on a refusal only.
   */
  void forgetFrom(int size) {
    if (size < 0 || size > this.size) {
      throw new IllegalArgumentException("cannot forget from " + size + " of " + this.size + " elements");
    }
    Arrays.fill(elements, size, this.size, null);
    this.size = size;
    slots = new int[slots.length];
    rehashInto(slots);
  }

  /** The slot holding {@code element}, or the empty slot where it would go (linear probing). */
  private int slotOf(LedgerElement element) {
    int mask = slots.length - 1;
    int slot = spread(element.hashCode()) & mask;
    while (slots[slot] != 0 && !elements[slots[slot] - 1].equals(element)) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void rehash() {
    int[] grown = new int[slots.length * 2];
    rehashInto(grown);
    slots = grown;
  }

  /** Places every element in {@code table}, empty, of a power-of-two length. */
  private void rehashInto(int[] table) {
    int mask = table.length - 1;
    for (int id = 0; id < size; id++) {
      int slot = spread(elements[id].hashCode()) & mask;
      while (table[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      table[slot] = id + 1;
    }
  }

  /** Mixes the high bits in: a record's hash of a string key varies mostly in its low bits' neighbours. */
  private static int spread(int hash) {
    int mixed = hash * 0x9E3779B9;
    return mixed ^ (mixed >>> 16);
  }
}
