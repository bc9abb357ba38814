package dev.lancemaintenance.ledger;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  /**
   * Throws unless the key snapshot's answers ({@link KeySnapshotMark}) are the ledger's marks: every
   * marked key answered alike, as many keys answered {@code KEPT} and {@code EXPIRED} as there are
   * marks of each (so the snapshot answers no key the marks do not name), and the same expired
   * manifests and retention facts.
   */
  public static void requireSameAsSnapshot(String table, MarkResult ledger, KeySnapshotMark.Outcome snapshot) {
    Map<String, ReferenceMark> marks = new HashMap<>();
    ledger.marks().forEach(mark -> marks.merge(mark.key(), mark, ReferenceMark::merge));
    Set<String> differences = new TreeSet<>();
    long kept = 0;
    long expired = 0;
    for (ReferenceMark mark : marks.values()) {
      Optional<MarkState> answer = snapshot.answers().markOf(mark.key());
      if (!answer.equals(Optional.of(mark.state()))) {
        differences.add(mark.key() + ": ledger " + describe(mark) + ", key snapshot " + answer.map(Enum::name).orElse("none"));
      }
      kept += mark.state() == MarkState.KEPT ? 1 : 0;
      expired += mark.state() == MarkState.EXPIRED ? 1 : 0;
    }
    if (kept != snapshot.answers().keptEntries() || expired != snapshot.answers().expiredEntries()) {
      differences.add("keys kept/expired: ledger " + kept + "/" + expired + ", key snapshot "
          + snapshot.answers().keptEntries() + "/" + snapshot.answers().expiredEntries());
    }
    if (!new HashSet<>(ledger.expiredManifests()).equals(new HashSet<>(snapshot.expiredManifests()))) {
      differences.add("expired manifests: ledger " + ledger.expiredManifests().size() + ", key snapshot "
          + snapshot.expiredManifests().size());
    }
    MarkSummary a = ledger.summary();
    MarkSummary b = snapshot.summary();
    if (a.expiredVersions() != b.expiredVersions() || a.earliestRetainedNanos() != b.earliestRetainedNanos()
        || !a.taggedOldVersions().equals(b.taggedOldVersions())) {
      differences.add("retention facts: ledger " + a + ", key snapshot " + b);
    }
    if (!differences.isEmpty()) {
      throw new MaintenanceException("Cannot clean up " + table + ": verify found the key snapshot's answers differ from the"
          + " ledger's marks in " + differences.size() + " place(s), nothing was deleted: "
          + String.join("; ", differences.stream().limit(5).toList()) + ". Run with mode full and report this.");
    }
  }

  private static String describe(ReferenceMark mark) {
    return mark == null ? "none" : mark.kind() + " " + mark.state();
  }
}
