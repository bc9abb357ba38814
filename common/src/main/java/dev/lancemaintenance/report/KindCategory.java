package dev.lancemaintenance.report;

import dev.lancemaintenance.format.FileKind;
import java.io.Serializable;

/** A bucket of the report's file table: a kind of file and what it is for. */
public record KindCategory(FileKind kind, StorageCategory category) implements Serializable, Comparable<KindCategory> {
  @Override
  public int compareTo(KindCategory other) {
    int byKind = kind.compareTo(other.kind);
    return byKind != 0 ? byKind : category.compareTo(other.category);
  }
}
