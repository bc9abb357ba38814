package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.format.Branch;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.RefReader;
import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Stage 1, plan (driver): lists the table's manifests and refs and fixes the retention facts. Reads
 * no manifest body. Holds one small location per version of the table and of each branch (the
 * branch's manifests are marked too), and the tags and fork points; never a data file path.
 */
public final class CleanupPlanner {
  /** Manifests decoded by one mark task: consecutive versions share most files, so marks dedupe well. */
  public static final int DEFAULT_SLICE_SIZE = 32;

  /** The directories Lance's cleanup considers, listed by separate tasks. */
  static final List<ListingTask> LISTINGS =
      List.of(
          new ListingTask("_versions", true),
          new ListingTask("_transactions", true),
          new ListingTask("_deletions", true),
          new ListingTask("_indices", true),
          new ListingTask("data", true));

  private final int sliceSize;

  public CleanupPlanner(int sliceSize) {
    if (sliceSize < 1) {
      throw new IllegalArgumentException("slice size must be >= 1: " + sliceSize);
    }
    this.sliceSize = sliceSize;
  }

  public CleanupPlanner() {
    this(DEFAULT_SLICE_SIZE);
  }

  public CleanupPlan plan(TableStorage storage, CleanupPolicy policy, long nowMillis) {
    String table = storage.location().toString();
    List<ManifestLocation> versions = sorted(VersionListing.list(storage, ""));
    if (versions.isEmpty()) {
      throw new MaintenanceException("Cannot clean up " + table + ": no manifests in _versions/ (not a Lance table?)");
    }
    long latest = versions.get(versions.size() - 1).version();

    Map<Long, List<String>> tagsByVersion = new HashMap<>();
    for (Tag tag : RefReader.listTags(storage)) {
      if (tag.branch().isEmpty()) {
        tagsByVersion.computeIfAbsent(tag.version(), v -> new ArrayList<>()).add(tag.name());
      }
    }

    Set<Long> forkPoints = new HashSet<>();
    List<ManifestSlice> slices = new ArrayList<>(slicesOf(ManifestSlice.SliceRole.TABLE_VERSIONS, "", versions));
    for (Branch branch : RefReader.listBranches(storage)) {
      if (branch.parentBranch().isEmpty()) {
        forkPoints.add(branch.parentVersion());
      }
      String dir = branch.datasetDir();
      slices.addAll(slicesOf(ManifestSlice.SliceRole.BRANCH_READERS, dir, sorted(VersionListing.list(storage, dir))));
    }

    RetentionFacts facts = new RetentionFacts(table, policy, latest, tagsByVersion, forkPoints, nowMillis);
    return new CleanupPlan(facts, slices, LISTINGS);
  }

  private List<ManifestSlice> slicesOf(ManifestSlice.SliceRole role, String dir, List<ManifestLocation> manifests) {
    List<ManifestSlice> slices = new ArrayList<>();
    for (int start = 0; start < manifests.size(); start += sliceSize) {
      slices.add(new ManifestSlice(role, dir, manifests.subList(start, Math.min(manifests.size(), start + sliceSize))));
    }
    return slices;
  }

  private static List<ManifestLocation> sorted(List<ManifestLocation> manifests) {
    List<ManifestLocation> copy = new ArrayList<>(manifests);
    copy.sort(Comparator.comparingLong(ManifestLocation::version));
    return copy;
  }
}
