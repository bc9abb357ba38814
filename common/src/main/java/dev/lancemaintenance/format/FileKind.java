package dev.lancemaintenance.format;

/** What a file of a Lance table is, by the reference that names it or the directory it sits in. */
public enum FileKind {
  MANIFEST,
  DATA,
  DELETION,
  INDEX,
  TRANSACTION,
  ROW_ID,
  BLOB,
  OTHER
}
