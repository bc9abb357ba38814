package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.CandidateFile;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * What one mark task found in its slice: its references deduplicated by key (kept wins), the
 * manifests of removed versions, and its summary.
 */
public record MarkResult(
    Collection<ReferenceMark> marks, List<CandidateFile> expiredManifests, MarkSummary summary) {
  public MarkResult {
    Objects.requireNonNull(marks, "marks");
    expiredManifests = List.copyOf(expiredManifests);
    Objects.requireNonNull(summary, "summary");
  }
}
