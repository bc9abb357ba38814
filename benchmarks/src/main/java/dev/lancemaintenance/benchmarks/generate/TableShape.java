package dev.lancemaintenance.benchmarks.generate;

import java.util.List;
import java.util.Locale;

/**
 * What a generated table's history looks like, and which cleanup the benchmark runs on it.
 *
 * <p>Version 1 creates the table; every later version is, by these rules in this order: a
 * compaction every {@code compactEvery} versions (the fragments appended since the last one become
 * one; 0 = never), a delete every {@code deleteEvery} (a deletion file on a fresh fragment), a new
 * index every {@code indexEvery} (a new index directory replaces the old one), else an append of
 * {@code fragmentsPerAppend} one-file fragments. When more than {@code retainedCompacted} compacted
 * fragments exist (0 = no limit), a compaction version drops the oldest instead (a retention
 * delete), so manifests stay small however long the history. Pick periods that are not multiples of
 * each other: a version due for two operations does only the first.
 *
 * @param versions versions before the finish (the create included)
 * @param finish what closes the history
 * @param tailAppends appends after the finish (the new versions of a steady table)
 * @param tags tags on the newest versions (retained by every benchmark cleanup)
 * @param expireFraction the share of versions the benchmark cleanup removes: 1 = all but the
 *     latest, 0.01 = the oldest 1%
 */
public record TableShape(
    String name,
    int versions,
    int fragmentsPerAppend,
    int compactEvery,
    int retainedCompacted,
    int deleteEvery,
    int indexEvery,
    Finish finish,
    int tailAppends,
    int tags,
    double expireFraction) {

  /** The last versions of the history. */
  public enum Finish {
    /** Nothing special. */
    AS_IS,
    /** A compaction as the SDK commits it: ReserveFragments, then Rewrite into one fragment. */
    COMPACTED
  }

  public TableShape {
    if (versions < 3 || fragmentsPerAppend < 1 || tags < 0 || tailAppends < 0) {
      throw new IllegalArgumentException("shape " + name + ": needs >= 3 versions, >= 1 fragment per append");
    }
    if (compactEvery < 0 || deleteEvery < 0 || indexEvery < 0 || retainedCompacted < 0) {
      throw new IllegalArgumentException("shape " + name + ": periods must be >= 0 (0 = never)");
    }
    if (!(expireFraction > 0 && expireFraction <= 1)) {
      throw new IllegalArgumentException("shape " + name + ": expireFraction must be in (0, 1]");
    }
  }

  /** 2,000 one-fragment appends, then a compaction to one fragment: a streaming table before its first cleanup. */
  public static TableShape large() {
    return new TableShape("large", 1_998, 1, 0, 0, 0, 0, Finish.COMPACTED, 0, 1, 1.0);
  }

  /** 100,000 versions and about a million files, manifests kept small by compaction and retention. */
  public static TableShape huge() {
    return new TableShape("huge", 100_000, 8, 10, 8, 47, 999, Finish.AS_IS, 0, 2, 1.0);
  }

  /** {@link #large()} after its compaction plus 1% more versions; the cleanup expires the oldest 1%. */
  public static TableShape steady() {
    return new TableShape("steady", 1_998, 1, 0, 0, 0, 0, Finish.COMPACTED, 20, 1, 0.01);
  }

  /**
   * {@link #huge()}'s history to 99,000 versions, then 1,000 appends (1% more); the cleanup expires
   * the oldest 1%: the daily run of a table whose history is too large to mark every day.
   */
  public static TableShape hugeSteady() {
    return new TableShape("huge-steady", 99_000, 8, 10, 8, 47, 999, Finish.AS_IS, 1_000, 2, 0.01);
  }

  /** Three versions of 100,000 fragments each: 300,000 live fragments. */
  public static TableShape wide() {
    return new TableShape("wide", 3, 100_000, 0, 0, 0, 0, Finish.AS_IS, 0, 1, 1.0);
  }

  public static List<TableShape> all() {
    return List.of(large(), huge(), steady(), wide(), hugeSteady());
  }

  /** The named shape ({@code large}, {@code huge}, {@code steady}, {@code wide}, {@code huge-steady}). */
  public static TableShape named(String name) {
    return all().stream()
        .filter(s -> s.name.equals(name.toLowerCase(Locale.ROOT)))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown shape " + name + "; known: large, huge, steady, wide, huge-steady"));
  }

  /** The same shape scaled to {@code newVersions} (tail appends scaled alike): toy tables for tests. */
  public TableShape withVersions(int newVersions) {
    int tail = tailAppends == 0 ? 0 : Math.max(1, (int) ((long) tailAppends * newVersions / versions));
    return new TableShape(name, newVersions, fragmentsPerAppend, compactEvery, retainedCompacted,
        deleteEvery, indexEvery, finish, tail, tags, expireFraction);
  }

  /** The same shape with {@code count} fragments per append. */
  public TableShape withFragmentsPerAppend(int count) {
    return new TableShape(name, versions, count, compactEvery, retainedCompacted,
        deleteEvery, indexEvery, finish, tailAppends, tags, expireFraction);
  }

  /** The latest version of a table of this shape. */
  public long latestVersion() {
    return (long) versions + (finish == Finish.COMPACTED ? 2 : 0) + tailAppends;
  }

  /**
   * The benchmark cleanup's {@code before_version}: versions below it go. The tagged newest versions
   * always stay, so the cleanup runs with Lance's default {@code error_if_tagged_old_versions}.
   */
  public long cleanupBeforeVersion() {
    long latest = latestVersion();
    long oldestTagged = latest - Math.max(0, tags - 1);
    return Math.max(2, Math.min(oldestTagged, 1 + Math.round(expireFraction * latest)));
  }
}
