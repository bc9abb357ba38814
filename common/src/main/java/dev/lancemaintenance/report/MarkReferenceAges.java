package dev.lancemaintenance.report;

import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.plan.VersionRetention;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.format.FileReference;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.ReferenceGroup;
import dev.lancemaintenance.format.ReferenceScanner;
import dev.lancemaintenance.format.ScannedManifest;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The report's mark stage: decodes the manifests of one slice, as the cleanup's {@link
 * dev.lancemaintenance.cleanup.stage.MarkManifests} does (same reader, same scanner, same rule for
 * what lies in the dataset), and records for every reference key its {@link ReferenceAge} instead
 * of a keep/drop state, so one pass answers every retention window. Each manifest of the dataset
 * also gets an age of its own (it is listed under {@code _versions/} and goes with its version).
 *
 * <p>Which versions pin their files is the cleanup's classification with the cut-off left out
 * ({@link RetentionFacts#classify} under {@link ReportWindows#timeless}): the latest version, a
 * version above {@code before_version}, a tagged version; every version of a branch that reads the
 * dataset pins too. Memory as the cleanup's mark: one decoded manifest, one entry per distinct
 * fragment and per distinct key of the slice.
 */
public final class MarkReferenceAges {
  private final TableStorage storage;
  private final RetentionFacts timeless;

  /** @param facts the plan's facts; the cut-off of their policy is ignored */
  public MarkReferenceAges(TableStorage storage, RetentionFacts facts) {
    this.storage = storage;
    this.timeless = ReportWindows.timeless(facts);
  }

  public AgeMarks mark(ManifestSlice slice) {
    Map<String, ReferenceAge> ages = new HashMap<>();
    Map<ReferenceGroup, ReferenceAge> groupAges = new IdentityHashMap<>();
    List<VersionStamp> stamps = new ArrayList<>();
    ReferenceScanner scanner = new ReferenceScanner(storage.location(), slice.dataset());
    boolean ownVersions = slice.role() == ManifestSlice.SliceRole.TABLE_VERSIONS;
    Set<String> branchPin = ownVersions ? Set.of()
        : Set.of("branch:" + slice.dataset().branchName().orElse(slice.dataset().dir()));
    for (ManifestLocation location : slice.manifests()) {
      ScannedManifest manifest = ManifestReader.scan(storage, location, scanner);
      ReferenceAge versionAge;
      if (ownVersions) {
        stamps.add(new VersionStamp(manifest.version(), manifest.timestampNanos(), location.size()));
        VersionRetention retention = timeless.classify(manifest.version(), manifest.timestampNanos());
        versionAge = ageOf(location.path(), FileKind.MANIFEST, manifest, retention.keepsFiles(), tagsOf(manifest.version()));
        // The manifest itself stays with a fork point, whose files do not (VersionRetention#keepsFiles).
        ReferenceAge manifestAge = ageOf(location.path(), FileKind.MANIFEST, manifest,
            retention != VersionRetention.EXPIRED, versionAge.pins());
        ages.merge(manifestAge.key(), manifestAge, ReferenceAge::merge);
      } else {
        versionAge = new ReferenceAge(location.path(), FileKind.MANIFEST, false, true, -1, Long.MIN_VALUE, branchPin);
      }
      for (ReferenceGroup group : manifest.groups()) {
        groupAges.merge(group, versionAge, ReferenceAge::merge);
      }
    }
    groupAges.forEach((group, age) -> markAll(group, age, ages));
    return new AgeMarks(ages.values(), stamps);
  }

  private ReferenceAge ageOf(String key, FileKind kind, ScannedManifest manifest, boolean pinned, Set<String> pins) {
    boolean latest = manifest.version() >= timeless.latestVersion();
    return pinned
        ? new ReferenceAge(key, kind, latest, true, -1, Long.MIN_VALUE, pins)
        : new ReferenceAge(key, kind, latest, false, manifest.version(), manifest.timestampNanos(), pins);
  }

  private Set<String> tagsOf(long version) {
    List<String> tags = timeless.tagsByVersion().getOrDefault(version, List.of());
    return Set.copyOf(tags.stream().map(tag -> "tag:" + tag).toList());
  }

  private void markAll(ReferenceGroup group, ReferenceAge groupAge, Map<String, ReferenceAge> ages) {
    for (FileReference reference : group.references()) {
      if (reference.external() || !ReferenceKeys.isInDataset(timeless.dataset(), reference.path())) {
        // Outside the dataset: never listed, as in the cleanup's mark.
        continue;
      }
      ReferenceAge age = new ReferenceAge(reference.path(), reference.kind(), groupAge.referencedByLatest(),
          groupAge.pinned(), groupAge.newestVersion(), groupAge.newestNanos(), groupAge.pins());
      ages.merge(age.key(), age, ReferenceAge::merge);
    }
  }
}
