package dev.lancemaintenance.ledger;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link MarkMode#VERIFY}: the incremental mark against the full mark of the same versions. Holds
 * both mark sets in memory, which is what a check for tests and trust-building may cost.
 */
public final class MarkVerification {
  private MarkVerification() {}

  /** Throws, naming the table and the first differences, unless both marks agree in every fact a decision uses. */
  public static void requireSame(String table, MarkResult incremental, List<MarkResult> full) {
    Map<String, ReferenceMark> fullMarks = new HashMap<>();
    Set<CandidateFile> fullExpired = new HashSet<>();
    MarkSummary fullSummary = MarkSummary.EMPTY;
    for (MarkResult result : full) {
      result.marks().forEach(mark -> fullMarks.merge(mark.key(), mark, ReferenceMark::merge));
      fullExpired.addAll(result.expiredManifests());
      fullSummary = fullSummary.plus(result.summary());
    }
    Map<String, ReferenceMark> ours = new HashMap<>();
    incremental.marks().forEach(mark -> ours.merge(mark.key(), mark, ReferenceMark::merge));
    Set<String> differences = new TreeSet<>();
    Set<String> keys = new TreeSet<>(fullMarks.keySet());
    keys.addAll(ours.keySet());
    for (String key : keys) {
      ReferenceMark a = ours.get(key);
      ReferenceMark b = fullMarks.get(key);
      if (a == null || b == null || a.state() != b.state() || a.kind() != b.kind()) {
        differences.add(key + ": ledger " + describe(a) + ", manifests " + describe(b));
      }
    }
    if (!new HashSet<>(incremental.expiredManifests()).equals(fullExpired)) {
      differences.add("expired manifests: ledger " + incremental.expiredManifests().size() + ", manifests " + fullExpired.size());
    }
    MarkSummary summary = incremental.summary();
    if (summary.expiredVersions() != fullSummary.expiredVersions()
        || summary.earliestRetainedNanos() != fullSummary.earliestRetainedNanos()
        || !summary.taggedOldVersions().equals(fullSummary.taggedOldVersions())) {
      differences.add("retention facts: ledger " + summary + ", manifests " + fullSummary);
    }
    if (!differences.isEmpty()) {
      throw new MaintenanceException("Cannot clean up " + table + ": verify found the ledger's marks differ from the manifests' in "
          + differences.size() + " place(s), nothing was deleted: " + String.join("; ", differences.stream().limit(5).toList())
          + ". Run with mode full and report this.");
    }
  }

  private static String describe(ReferenceMark mark) {
    return mark == null ? "none" : mark.kind() + " " + mark.state();
  }
}
