package dev.lancemaintenance.ledger;

import java.util.function.IntToLongFunction;

/**
 * The positions of a list in a stable order of a {@code long} key, as an {@code int[]}: what a stable
 * sort of the list's records gives, without a record object or a boxed key per position (the fold
 * orders a segment's million opens and closes by version this way, {@link LedgerState#apply}).
 */
final class StableOrder {
  private StableOrder() {}

  /** The positions {@code 0..size-1} ordered by {@code key}, equal keys in position order. */
  static int[] of(int size, IntToLongFunction key) {
    long[] keys = new long[size];
    int[] order = new int[size];
    boolean sorted = true;
    for (int i = 0; i < size; i++) {
      keys[i] = key.applyAsLong(i);
      order[i] = i;
      sorted &= i == 0 || keys[i - 1] <= keys[i];
    }
    if (!sorted) {
      mergeSort(order, new int[size], keys, 0, size);
    }
    return order;
  }

  /** Sorts {@code order[from, to)} by {@code keys}, stably (a merge keeps the left run first on ties). */
  private static void mergeSort(int[] order, int[] scratch, long[] keys, int from, int to) {
    if (to - from < 2) {
      return;
    }
    int middle = (from + to) >>> 1;
    mergeSort(order, scratch, keys, from, middle);
    mergeSort(order, scratch, keys, middle, to);
    if (keys[order[middle - 1]] <= keys[order[middle]]) {
      return;
    }
    System.arraycopy(order, from, scratch, from, to - from);
    int left = from;
    int right = middle;
    for (int at = from; at < to; at++) {
      if (right >= to || (left < middle && keys[scratch[left]] <= keys[scratch[right]])) {
        order[at] = scratch[left++];
      } else {
        order[at] = scratch[right++];
      }
    }
  }
}
