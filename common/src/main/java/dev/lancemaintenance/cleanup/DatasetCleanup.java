package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.format.DatasetRef;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * One dataset of a table to clean, and how: what an engine runs the stages for. A run with {@code
 * clean_referenced_branches} is several of these, the referenced branches first.
 *
 * @param dataset the main line or a branch
 * @param policy the policy for this dataset
 * @param now the run's clock, read once
 * @param inventory the manifest of the S3 Inventory report to list the dataset from, null to walk
 *     its managed directories
 */
public record DatasetCleanup(DatasetRef dataset, CleanupPolicy policy, Instant now, String inventory)
    implements Serializable {
  public DatasetCleanup {
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(now, "now");
  }

  /** A cleanup that walks the dataset's managed directories. */
  public DatasetCleanup(DatasetRef dataset, CleanupPolicy policy, Instant now) {
    this(dataset, policy, now, null);
  }
}
