package dev.lancemaintenance.compaction;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.cleanup.plan.VersionRetention;
import dev.lancemaintenance.format.Manifest;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.storage.TableStorage;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The tag trap check of optimize: which tags the cleanup after a compaction would refuse over. It
 * asks the cleanup's own rules ({@link CleanupPlanner} for tags and versions, {@link
 * RetentionFacts#classify}) about the table as the cleanup will see it: with a newer latest version
 * than today's when the compaction commits anything. Only the manifests of tagged versions are read.
 */
public final class TagTrapPreflight {
  private TagTrapPreflight() {}

  /**
   * Tags (name to version) the cleanup with {@code policy} would find on old versions once {@code
   * latestVersionAfter} is the latest version.
   */
  public static SortedMap<String, Long> tagsCleanupWouldRefuse(
      TableStorage storage, CleanupPolicy policy, long latestVersionAfter, long nowMillis) {
    CleanupPlan plan = new CleanupPlanner().plan(storage, policy, DatasetRef.MAIN, nowMillis);
    RetentionFacts today = plan.facts();
    RetentionFacts afterCompaction =
        new RetentionFacts(
            today.table(),
            today.dataset(),
            policy,
            Math.max(today.latestVersion(), latestVersionAfter),
            today.tagsByVersion(),
            today.forkPoints(),
            nowMillis);
    SortedMap<String, Long> refused = new TreeMap<>();
    for (ManifestSlice slice : plan.slices()) {
      if (slice.role() != ManifestSlice.SliceRole.TABLE_VERSIONS) {
        continue;
      }
      for (ManifestLocation location : slice.manifests()) {
        List<String> tags = afterCompaction.tagsByVersion().get(location.version());
        if (tags == null) {
          continue;
        }
        Manifest manifest = ManifestReader.read(storage, location);
        if (afterCompaction.classify(manifest.version(), manifest.timestampNanos()) == VersionRetention.TAGGED_BUT_OLD) {
          tags.forEach(tag -> refused.put(tag, manifest.version()));
        }
      }
    }
    return refused;
  }

  /** The version the cleanup will see as latest: one more when the compaction commits anything. */
  public static long latestVersionAfter(CompactionPlan plan) {
    return plan.isEmpty() ? plan.readVersion() : plan.readVersion() + 1;
  }
}
