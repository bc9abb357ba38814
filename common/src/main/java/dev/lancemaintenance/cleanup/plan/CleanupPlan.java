package dev.lancemaintenance.cleanup.plan;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What the driver decided before any manifest body was read: the retention facts, the mark work in
 * slices and the directories to list. Its size grows with the number of versions (one location
 * each), never with the number of data files.
 */
public record CleanupPlan(RetentionFacts facts, List<ManifestSlice> slices, List<ListingTask> listings)
    implements Serializable {
  public CleanupPlan {
    Objects.requireNonNull(facts, "facts");
    slices = List.copyOf(slices);
    listings = List.copyOf(listings);
  }

  /** Manifests the mark stage decodes: the table's and those of the branches it reads. */
  public long manifestCount() {
    return slices.stream().mapToLong(slice -> slice.manifests().size()).sum();
  }

  /** Manifests of the table itself (not of branches) the plan will classify. */
  public long tableManifestCount() {
    return slices.stream()
        .filter(slice -> slice.role() == ManifestSlice.SliceRole.TABLE_VERSIONS)
        .mapToLong(slice -> slice.manifests().size())
        .sum();
  }
}
