package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.ManifestLocation;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of consecutive manifests that one task summarises for the ledger ({@link
 * VersionSummaries#summarise}): each is diffed against the one before it, so the task also decodes
 * the manifest just before the run, its base, the last of the previous run. The first run has no
 * base; the driver diffs it against the ledger's newest references ({@link VersionSummaries#join}).
 *
 * @param base the manifest summarised just before the run: none for the first run, else one
 * @param manifests the run, in version order
 * @param runsInCut how many runs the cut that made this one made: all of them may be summarised at
 *     the same time, so each reads ahead its share of what the store takes in flight ({@link
 *     VersionSummaries#summarise})
 */
public record ManifestRun(List<ManifestLocation> base, List<ManifestLocation> manifests, int runsInCut)
    implements Serializable {
  public ManifestRun {
    base = List.copyOf(base);
    manifests = List.copyOf(manifests);
    if (base.size() > 1 || manifests.isEmpty()) {
      throw new IllegalArgumentException("a run has at most one base manifest and at least one manifest");
    }
    if (runsInCut < 1) {
      throw new IllegalArgumentException("a run is one of at least one: " + runsInCut);
    }
  }

  /** {@code manifests} (in version order) cut into runs of at most {@code length}, each based on the one before. */
  public static List<ManifestRun> cut(List<ManifestLocation> manifests, int length) {
    if (length < 1) {
      throw new IllegalArgumentException("run length must be > 0: " + length);
    }
    List<ManifestRun> runs = new ArrayList<>();
    int count = (manifests.size() + length - 1) / length;
    for (int from = 0; from < manifests.size(); from += length) {
      List<ManifestLocation> base = from == 0 ? List.of() : List.of(manifests.get(from - 1));
      runs.add(new ManifestRun(base, manifests.subList(from, Math.min(manifests.size(), from + length)), count));
    }
    return runs;
  }
}
