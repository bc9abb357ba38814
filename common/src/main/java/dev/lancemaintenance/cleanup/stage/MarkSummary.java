package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.plan.VersionRetention;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The small facts a mark task reports besides its references; a monoid, reduced on the driver.
 *
 * @param manifestsRead manifests decoded
 * @param expiredVersions versions of the table classified as removed
 * @param earliestRetainedNanos the smallest manifest timestamp among retained versions of the table
 *     ({@link Long#MAX_VALUE} when the task saw none); files newer than it are never candidates
 * @param taggedOldVersions tags whose version the policy would remove, tag name to version
 * @param expiryRecordsUsed the paths of the expiry records whose marks the task gave (written by
 *     {@code expire_versions}): the records a run that sweeps completely may retire. Names only,
 *     one per record, never what a record holds
 */
public record MarkSummary(
    long manifestsRead,
    long expiredVersions,
    long earliestRetainedNanos,
    Map<String, Long> taggedOldVersions,
    Set<String> expiryRecordsUsed)
    implements Serializable {

  public static final MarkSummary EMPTY = new MarkSummary(0, 0, Long.MAX_VALUE, Map.of());

  public MarkSummary {
    taggedOldVersions = Map.copyOf(taggedOldVersions);
    expiryRecordsUsed = Set.copyOf(expiryRecordsUsed);
  }

  /** The summary of manifests (no expiry record used). */
  public MarkSummary(long manifestsRead, long expiredVersions, long earliestRetainedNanos, Map<String, Long> taggedOldVersions) {
    this(manifestsRead, expiredVersions, earliestRetainedNanos, taggedOldVersions, Set.of());
  }

  /** The summary of a task that used {@code records} and read no manifest. */
  public static MarkSummary ofExpiryRecords(Set<String> records) {
    return new MarkSummary(0, 0, Long.MAX_VALUE, Map.of(), records);
  }

  /**
   * Refuses the run, before any delete, when the policy would remove tagged versions and {@code
   * error_if_tagged_old_versions} is on (Lance's default); every engine calls this between mark and
   * the first delete.
   */
  public void refuseTaggedOldVersions(RetentionFacts facts) {
    if (facts.policy().errorIfTaggedOldVersions() && !taggedOldVersions.isEmpty()) {
      throw new TaggedVersionsException(facts.describe(), taggedOldVersions);
    }
  }

  /**
   * What one decoded version of the dataset being cleaned adds to the summary: it counts as read,
   * as expired when it goes, bounds the earliest retained timestamp when it keeps its files, and
   * names its tags when it is tagged but old. One home for the mark stage and the ledger's.
   */
  public static MarkSummary ofVersion(RetentionFacts facts, long version, long timestampNanos, VersionRetention retention) {
    Map<String, Long> tagged = Map.of();
    if (retention == VersionRetention.TAGGED_BUT_OLD) {
      tagged = new HashMap<>();
      for (String tag : facts.tagsByVersion().getOrDefault(version, java.util.List.of())) {
        tagged.put(tag, version);
      }
    }
    long earliest = retention.keepsFiles() ? timestampNanos : Long.MAX_VALUE;
    return new MarkSummary(1, retention == VersionRetention.EXPIRED ? 1 : 0, earliest, tagged);
  }

  /**
   * Both summaries in one. A side with no tags or no records adds none, and the other side's
   * (immutable) map or set is taken as it is: a daily run folds one summary per listed version
   * (101,010 on {@code huge-steady}), nearly all without either, and copying two empty collections
   * into a new map and set per version was a visible part of its mark (docs/benchmarks.md, "stop 34").
   */
  public MarkSummary plus(MarkSummary other) {
    return new MarkSummary(
        manifestsRead + other.manifestsRead,
        expiredVersions + other.expiredVersions,
        Math.min(earliestRetainedNanos, other.earliestRetainedNanos),
        union(taggedOldVersions, other.taggedOldVersions),
        union(expiryRecordsUsed, other.expiryRecordsUsed));
  }

  /** Both maps' entries, the second's winning on a shared key, as {@code putAll} has it. */
  private static <K, V> Map<K, V> union(Map<K, V> first, Map<K, V> second) {
    if (second.isEmpty()) {
      return first;
    }
    if (first.isEmpty()) {
      return second;
    }
    Map<K, V> both = new HashMap<>(first);
    both.putAll(second);
    return both;
  }

  private static <T> Set<T> union(Set<T> first, Set<T> second) {
    if (second.isEmpty()) {
      return first;
    }
    if (first.isEmpty()) {
      return second;
    }
    Set<T> both = new TreeSet<>(first);
    both.addAll(second);
    return both;
  }
}
