package dev.lancemaintenance.local;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many records one run's {@link Spills} may hold in memory, across all its files: a spill file
 * keeps its records while it can take one more from here, and moves them to disk once it cannot,
 * handing its share back. So a run holds at most the budget's records in memory whatever the
 * table, and a table whose marks and listed files fit spills nothing to disk.
 */
final class SpillBudget {
  /**
   * Records a run holds in memory before its spills go to disk: about 20 MB of paths (a record is a
   * path of ~100 bytes and its object, a few hundred bytes with the list's slot), far below the
   * driver heaps the local engine runs in, and above the marks plus listed files of a table of a
   * few thousand versions (steady: 6,060 of each). LocalCleanupAction.inMemorySpillRecords documents it.
   */
  static final long DEFAULT_RECORDS = 100_000;

  private final AtomicLong left;

  SpillBudget(long records) {
    if (records < 0) {
      throw new IllegalArgumentException("in-memory spill records must be >= 0: " + records);
    }
    this.left = new AtomicLong(records);
  }

  /** Takes room for one record in memory; false when none is left. */
  boolean tryTake() {
    while (true) {
      long now = left.get();
      if (now <= 0) {
        return false;
      }
      if (left.compareAndSet(now, now - 1)) {
        return true;
      }
    }
  }

  /** Returns the room of records that left memory. */
  void giveBack(long records) {
    left.addAndGet(records);
  }
}
