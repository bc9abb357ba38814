package dev.lancemaintenance.ledger;

/** How a cleanup learns which files the versions of the dataset it cleans reference. */
public enum MarkMode {
  /** Decode every listed manifest (the default until the ledger has proven itself in production). */
  FULL,
  /**
   * Decode only what the ledger cannot answer: manifests newer than its end, or all of them when
   * it is absent or unusable; then record what was learnt. Exactly the marks of {@link #FULL}.
   */
  INCREMENTAL,
  /**
   * Both, and refuse the run before any delete when they differ in one mark, one expired manifest
   * or one retention fact. For tests and for gaining trust in the ledger on a real table.
   */
  VERIFY
}
