package dev.lancemaintenance.cleanup;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * One dataset of a table to clean, and how: what an engine runs the stages for. A run with {@code
 * clean_referenced_branches} is several of these, the referenced branches first.
 *
 * @param datasetDir {@code ""} for the main table, {@code tree/<branch>} for a branch
 * @param policy the policy for this dataset
 * @param now the run's clock, read once
 */
public record DatasetCleanup(String datasetDir, CleanupPolicy policy, Instant now) implements Serializable {
  public DatasetCleanup {
    Objects.requireNonNull(datasetDir, "datasetDir");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(now, "now");
  }
}
