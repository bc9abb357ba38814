package dev.lancemaintenance.format;

/** What role a file plays in a table; cleanup counts and reports by kind. */
public enum FileKind {
  /** {@code _versions/*.manifest}. */
  MANIFEST,
  /** {@code data/*.lance}. */
  DATA,
  /** {@code _deletions/*.arrow} and {@code *.bin}. */
  DELETION,
  /** An index directory {@code _indices/{uuid}} and everything below it. */
  INDEX,
  /** {@code _transactions/*.txn}. */
  TRANSACTION,
  /** A fragment's row ids or row version sequence stored outside the manifest. */
  ROW_ID,
  /** A blob sidecar {@code data/{data-file-stem}/*.blob}, owned by its data file. */
  BLOB,
  /** Anything else. */
  OTHER
}
