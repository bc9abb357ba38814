package dev.lancemaintenance.report;

import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * What one report mark task found in its slice: the ages of its reference keys (deduplicated by
 * key) and a stamp per version of the dataset it read (none for a branch's slice).
 */
public record AgeMarks(Collection<ReferenceAge> ages, List<VersionStamp> versions) {
  public AgeMarks {
    Objects.requireNonNull(ages, "ages");
    versions = List.copyOf(versions);
  }
}
