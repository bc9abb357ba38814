package dev.lancemaintenance.testing;

/**
 * The history the store and cluster tests clean: two appends, a predicate delete, a BTREE index, a
 * merge-insert update, compaction, one more append. A cleanup that expires all but the last two
 * versions then removes data, deletion, index, transaction and manifest files alike.
 */
public final class CompactedHistory {
  private CompactedHistory() {}

  /** Writes the history into {@code table} (which need not exist yet) and returns it. */
  public static LanceTableFixture write(LanceTableFixture table) {
    long v1 = table.append(30);
    table.append(30);
    table.deleteWhere("id % 3 = 0");
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    table.update(LanceTableFixture.firstId(v1) + 1, 5);
    table.compact();
    table.append(10);
    return table;
  }
}
