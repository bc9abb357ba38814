package dev.lancemaintenance.cleanup.rules;

import java.util.List;

/**
 * Keeping the N newest versions whatever their age: {@code retain_last} of a cleanup (Iceberg's
 * {@code retain_last}, Paimon's {@code retain_min}) and {@code lance.auto_cleanup.retain_versions} of
 * Lance's own config share this one rule.
 *
 * <p>The N newest are the N highest-numbered manifests the dataset lists ({@code _versions/} of the
 * main line, or of the branch cleaned), tagged ones included: a tag keeps its version on top of
 * them, never in place of one. The rule becomes a version bound, so it only ever adds to what the
 * time and version bounds keep: a version goes only when it is below every bound.
 */
public final class RetainLast {
  private RetainLast() {}

  /**
   * The oldest of the {@code count} newest of {@code ascendingVersions} (the oldest version when
   * there are at most {@code count}): versions strictly below it may go. Lance's {@code
   * retain_n_versions}, the version at index {@code size - count}.
   *
   * @param ascendingVersions the versions the dataset lists, oldest first, not empty
   * @param count how many of the newest to keep, at least 1
   */
  public static long oldestKept(List<Long> ascendingVersions, long count) {
    if (count < 1) {
      throw new IllegalArgumentException("retain_last must be >= 1: " + count);
    }
    if (ascendingVersions.isEmpty()) {
      throw new IllegalArgumentException("no versions to retain the last " + count + " of");
    }
    if (ascendingVersions.size() <= count) {
      return ascendingVersions.get(0);
    }
    return ascendingVersions.get(ascendingVersions.size() - (int) count);
  }
}
