package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.FileKind;
import java.io.Serializable;
import java.util.Objects;

/**
 * One reference as the mark stage marks it: its reference key (a table-relative file, or an index
 * directory), its kind, and whether its place is certain (a reference through a base path that only
 * counts as this table is kept if present, never a sign of damage). Two versions reference the same
 * element when all three agree; the ledger records when each element enters and leaves the table's
 * versions.
 */
public record LedgerElement(String key, FileKind kind, boolean certain) implements Comparable<LedgerElement>, Serializable {
  public LedgerElement {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
  }

  @Override
  public int compareTo(LedgerElement other) {
    int byKey = key.compareTo(other.key);
    if (byKey != 0) {
      return byKey;
    }
    int byKind = kind.compareTo(other.kind);
    return byKind != 0 ? byKind : Boolean.compare(certain, other.certain);
  }
}
