package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * A unit of mark work: a few manifests decoded by one task.
 *
 * @param role whether these are versions of the table being cleaned or of a branch that reads it
 * @param dataset the dataset the manifests belong to: the one being cleaned, or a branch reading it
 * @param manifests the manifests, in version order
 */
public record ManifestSlice(SliceRole role, DatasetRef dataset, List<ManifestLocation> manifests)
    implements Serializable {
  public ManifestSlice {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(dataset, "dataset");
    manifests = List.copyOf(manifests);
  }

  /** What the manifests of a slice are to the cleanup. */
  public enum SliceRole {
    /** Versions of the table being cleaned: classified by the policy, expired ones go. */
    TABLE_VERSIONS,
    /**
     * Versions of a branch. A cleanup of the table never removes them; every file they read from the
     * table's own directories is kept.
     */
    BRANCH_READERS
  }
}
