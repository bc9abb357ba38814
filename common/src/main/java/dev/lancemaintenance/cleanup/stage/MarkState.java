package dev.lancemaintenance.cleanup.stage;

/**
 * What the manifests say about one file. Merging is "kept wins": a file any retained version
 * references is never deleted, whatever expired versions also reference it.
 */
public enum MarkState {
  /** Referenced by at least one retained version (or a branch that reads this table). */
  KEPT,
  /** Referenced only by versions being removed ("verified" in Lance's words). */
  EXPIRED,
  /**
   * Referenced by a retained version through a base path that only counts as this table because it
   * cannot be resolved: kept like {@link #KEPT} when the table has the file, but its absence from
   * the listing is no sign of damage (it may name another table's file).
   */
  KEPT_IF_PRESENT;

  /** Whether a listed file with this mark stays. */
  public boolean keeps() {
    return this != EXPIRED;
  }

  /** The stronger of the two: KEPT over KEPT_IF_PRESENT over EXPIRED. */
  public MarkState merge(MarkState other) {
    if (this == KEPT || other == KEPT) {
      return KEPT;
    }
    return this == KEPT_IF_PRESENT || other == KEPT_IF_PRESENT ? KEPT_IF_PRESENT : EXPIRED;
  }
}
