package dev.lancemaintenance.cleanup.stage;

/**
 * What the manifests say about one file. Merging is "kept wins": a file any retained version
 * references is never deleted, whatever expired versions also reference it.
 */
public enum MarkState {
  /** Referenced by at least one retained version (or a branch that reads this table). */
  KEPT,
  /** Referenced only by versions being removed ("verified" in Lance's words). */
  EXPIRED;

  public MarkState merge(MarkState other) {
    return this == KEPT || other == KEPT ? KEPT : EXPIRED;
  }
}
