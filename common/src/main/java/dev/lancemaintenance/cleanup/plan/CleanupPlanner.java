package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.rules.InventorySnapshot;
import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.format.Branch;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.RefReader;
import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.inventory.S3Inventory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Stage {@code plan} (driver): lists the manifests of the dataset being cleaned (the main table or one
 * branch) and the table's refs, and fixes the retention facts. Reads no manifest body. Holds one
 * small location per version of the dataset and of each descendant branch (their manifests are
 * marked too), and the tags and fork points; never a data file path.
 */
public final class CleanupPlanner {
  /** Manifests decoded by one mark task: consecutive versions share most files, so marks dedupe well. */
  public static final int DEFAULT_SLICE_SIZE = 128;

  private final int sliceSize;
  private final int minSlices;
  /** Given each entry of the dataset's {@code _versions/} listing as the walk gives it. */
  private final Consumer<FileEntry> listingSeenBy;

  public CleanupPlanner(int sliceSize) {
    this(sliceSize, 1);
  }

  /**
   * Slices of at most {@code maxSliceSize} manifests, but small enough that a dataset's versions
   * make at least {@code minSlices} of them when it has that many: an engine that keeps many
   * requests in flight (an object store, where each read waits on the network) needs as many mark
   * tasks, since a task reads its slice one manifest after the other.
   */
  public CleanupPlanner(int maxSliceSize, int minSlices) {
    if (maxSliceSize < 1 || minSlices < 1) {
      throw new IllegalArgumentException("slice size and slice count must be >= 1: " + maxSliceSize + ", " + minSlices);
    }
    this.sliceSize = maxSliceSize;
    this.minSlices = minSlices;
    this.listingSeenBy = entry -> {};
  }

  private CleanupPlanner(CleanupPlanner planner, Consumer<FileEntry> listingSeenBy) {
    this.sliceSize = planner.sliceSize;
    this.minSlices = planner.minSlices;
    this.listingSeenBy = listingSeenBy;
  }

  /**
   * This planner, handing each entry of the cleaned dataset's {@code _versions/} listing to {@code
   * seen} as the walk gives it (every listing, should the plan list again): for work that needs a
   * listed name and may start before the listing ends, such as the new manifests' reads of a daily
   * run ({@link dev.lancemaintenance.format.ManifestsReadEarly}). What the plan holds is the same.
   */
  public CleanupPlanner listingSeenBy(Consumer<FileEntry> seen) {
    return new CleanupPlanner(this, seen);
  }

  public CleanupPlanner() {
    this(DEFAULT_SLICE_SIZE);
  }

  /**
   * Plans the cleanup of {@code dataset}: the main line, or a branch as Lance cleans the dataset a
   * branch checkout opens.
   */
  public CleanupPlan plan(TableStorage storage, CleanupPolicy policy, DatasetRef dataset, long nowMillis) {
    return plan(storage, policy, dataset, nowMillis, (S3Inventory) null);
  }

  /**
   * Plans the cleanup of {@code dataset} listed from an S3 Inventory report instead of a walk of its
   * managed directories: one listing task per data file of the report, the policy narrowed to
   * versions committed before the report ({@link InventorySnapshot}).
   *
   * @param inventory the report, null to walk the directories
   */
  public CleanupPlan plan(
      TableStorage storage, CleanupPolicy policy, DatasetRef dataset, long nowMillis, S3Inventory inventory) {
    String table = storage.location().toString();
    Optional<String> branch = dataset.branchName();
    // The refs are read beside the hint and the listing, which do not need them: on an object store
    // the plan's requests then wait for one another two deep, not eight.
    CompletableFuture<RefReader.Refs> readingRefs = DaemonThreads.beside("lance-plan-refs", () -> RefReader.readAll(storage));
    // The hint is read beside the listing: on an object store one round trip fewer in a row. A
    // listing that reaches the hint passes the check below whichever of the two the store answered
    // first. One that ends below it may have been answered before a commit the hint records, so both
    // are read again in order, the hint first: a commit it records then precedes the listing, and a
    // listing below it has lost manifests (or the store lists too little), not raced a writer.
    CompletableFuture<OptionalLong> readingHint =
        DaemonThreads.beside("lance-plan-hint", () -> VersionListing.readLatestVersionHint(storage, dataset));
    OptionalLong hinted;
    VersionListing.Directory listed;
    List<ManifestLocation> versions;
    try {
      try {
        listed = VersionListing.listDirectory(storage, dataset, listingSeenBy);
        versions = sorted(listed.manifests());
      } finally {
        readingHint.exceptionally(failed -> null).join(); // never left running; its own failure is thrown below
      }
      hinted = DaemonThreads.join(readingHint);
      if (endsBelow(versions, hinted)) {
        hinted = VersionListing.readLatestVersionHint(storage, dataset);
        listed = VersionListing.listDirectory(storage, dataset, listingSeenBy);
        versions = sorted(listed.manifests());
      }
    } finally {
      readingRefs.exceptionally(failed -> null).join(); // never left running; its own failure is thrown below
    }
    RefReader.Refs refs = DaemonThreads.join(readingRefs);
    List<Branch> branches = refs.branches();
    if (branch.isPresent() && branches.stream().noneMatch(b -> b.name().equals(branch.get()))) {
      throw new MaintenanceException("Cannot clean up branch " + branch.get() + " of " + table
          + ": no such branch in _refs/branches/");
    }
    if (versions.isEmpty()) {
      throw new MaintenanceException("Cannot clean up " + dataset.describe(table) + ": no manifests in "
          + dataset.resolve(ManagedLayout.VERSIONS) + "/ (not a Lance table?)");
    }
    long latest = versions.get(versions.size() - 1).version();
    if (endsBelow(versions, hinted)) {
      throw new MaintenanceException("Cannot clean up " + dataset.describe(table) + ": "
          + VersionListing.latestVersionHintPath(dataset) + " records version "
          + Long.toUnsignedString(hinted.getAsLong()) + " but the newest manifest listed is version "
          + Long.toUnsignedString(latest) + "; the listing is incomplete or manifests were lost, so nothing was deleted");
    }

    Map<Long, List<String>> tagsByVersion = new HashMap<>();
    for (Tag tag : refs.tags()) {
      // Only tags of the dataset being cleaned protect its versions (Lance 7).
      if (tag.branch().equals(branch)) {
        tagsByVersion.computeIfAbsent(tag.version(), v -> new ArrayList<>()).add(tag.name());
      }
    }

    Set<Long> forkPoints = new HashSet<>();
    List<ManifestSlice> slices = new ArrayList<>(slicesOf(ManifestSlice.SliceRole.TABLE_VERSIONS, dataset, versions));
    for (BranchLineage.Descendant descendant : BranchLineage.descendantsOf(branch, branches)) {
      forkPoints.add(descendant.forkVersion());
      DatasetRef reader = descendant.branch().dataset();
      slices.addAll(slicesOf(
          ManifestSlice.SliceRole.BRANCH_READERS, reader, sorted(VersionListing.list(storage, reader))));
    }

    // retain_last becomes a version bound here, where the dataset's listing is known; every stage
    // after the plan sees only the resolved policy.
    CleanupPolicy resolved = policy.forVersions(versions.stream().map(ManifestLocation::version).toList());
    if (inventory == null) {
      RetentionFacts facts =
          new RetentionFacts(table, dataset, resolved, latest, tagsByVersion, forkPoints, nowMillis);
      return new CleanupPlan(facts, slices, walkedListings(dataset, listed));
    }
    InventorySnapshot snapshot = new InventorySnapshot(
        "S3 Inventory " + inventory.manifestUri(), inventory.manifest().creationTime().toEpochMilli());
    List<ListingTask> listings = inventory.parts(storage.location()).stream()
        .map(part -> ListingTask.fromInventory(dataset, part))
        .toList();
    return fromInventory(
        new RetentionFacts(table, dataset, resolved, latest, tagsByVersion, forkPoints, nowMillis), snapshot, slices, listings);
  }

  /**
   * Plans the cleanup of {@code dataset} listed from an inventory an engine reads itself (a Spark
   * view of file paths), whose tasks the plan does not hold: the plan of {@link #plan}, its policy
   * narrowed to versions committed before the inventory ({@link InventorySnapshot}), with no listing
   * task.
   */
  public CleanupPlan plan(
      TableStorage storage, CleanupPolicy policy, DatasetRef dataset, long nowMillis, InventorySnapshot inventory) {
    CleanupPlan walked = plan(storage, policy, dataset, nowMillis);
    return fromInventory(walked.facts(), inventory, walked.slices(), List.of());
  }

  private static CleanupPlan fromInventory(
      RetentionFacts walked, InventorySnapshot inventory, List<ManifestSlice> slices, List<ListingTask> listings) {
    RetentionFacts facts = new RetentionFacts(walked.table(), walked.dataset(),
        walked.policy().withBeforeTimestampAtMost(inventory.taken()), walked.latestVersion(), walked.tagsByVersion(),
        walked.forkPoints(), walked.nowMillis(), inventory);
    return new CleanupPlan(facts, slices, listings);
  }

  /**
   * The same plan with its manifests cut into this planner's slices: for an engine that hands a
   * plan another engine made to its own tasks, without listing {@code _versions/} again.
   */
  public CleanupPlan reslice(CleanupPlan plan) {
    List<ManifestSlice> slices = new ArrayList<>();
    List<ManifestLocation> run = new ArrayList<>();
    ManifestSlice first = null;
    for (ManifestSlice slice : plan.slices()) {
      if (first != null && (first.role() != slice.role() || !first.dataset().equals(slice.dataset()))) {
        slices.addAll(slicesOf(first.role(), first.dataset(), run));
        run = new ArrayList<>();
      }
      if (run.isEmpty()) {
        first = slice;
      }
      run.addAll(slice.manifests());
    }
    if (first != null) {
      slices.addAll(slicesOf(first.role(), first.dataset(), run));
    }
    return new CleanupPlan(plan.facts(), slices, plan.listings());
  }

  private List<ManifestSlice> slicesOf(ManifestSlice.SliceRole role, DatasetRef dataset, List<ManifestLocation> manifests) {
    int sliceSize = Math.max(1, Math.min(this.sliceSize, (manifests.size() + minSlices - 1) / minSlices));
    List<ManifestSlice> slices = new ArrayList<>();
    for (int start = 0; start < manifests.size(); start += sliceSize) {
      slices.add(new ManifestSlice(role, dataset, manifests.subList(start, Math.min(manifests.size(), start + sliceSize))));
    }
    return slices;
  }

  /**
   * One listing task per managed directory, {@code _versions/} as the plan listed it: its candidates
   * ({@code .tmp*} staging files) are found in the plan's own listing, not in a second walk of the
   * same directory (on an object store, its pages again, 1,000 keys each). Exact as a walk taken
   * later: the listing was taken under the lease like the walk, only earlier, so it can lack only
   * files written since, which a walk taken after it may show or not; a file it lacks is never a
   * candidate, so it stays, as a file written after Lance's own listing stays (docs/cleanup-semantics.md,
   * "The plan's listing of {@code _versions/} is the list stage's").
   */
  private static List<ListingTask> walkedListings(DatasetRef dataset, VersionListing.Directory versions) {
    return ManagedLayout.DIRECTORIES.stream()
        .map(dir -> dir.equals(ManagedLayout.VERSIONS)
            ? ListingTask.listedByPlan(dataset.resolve(dir), versions.files())
            : walkOf(dataset, dir))
        .toList();
  }

  /**
   * The listing tasks of a plan that walks {@code dataset}'s directories which need nothing of the
   * plan: every managed directory but {@code _versions/} (the plan's own listing), each the task
   * the plan then holds, equal to it. An engine may start them beside the plan and hand each to the
   * plan's task equal to it; a plan that lists otherwise (an inventory, a resumed sweep) holds no
   * task equal to them.
   */
  public static List<ListingTask> walksKnownBeforeThePlan(DatasetRef dataset) {
    return ManagedLayout.DIRECTORIES.stream()
        .filter(dir -> !dir.equals(ManagedLayout.VERSIONS))
        .map(dir -> walkOf(dataset, dir))
        .toList();
  }

  private static ListingTask walkOf(DatasetRef dataset, String dir) {
    return new ListingTask(dataset.resolve(dir), true);
  }

  /** Whether the hint records a version the listing does not reach (an empty listing reaches none). */
  private static boolean endsBelow(List<ManifestLocation> versions, OptionalLong hinted) {
    return hinted.isPresent() && (versions.isEmpty()
        || Long.compareUnsigned(hinted.getAsLong(), versions.get(versions.size() - 1).version()) > 0);
  }

  private static List<ManifestLocation> sorted(List<ManifestLocation> manifests) {
    List<ManifestLocation> copy = new ArrayList<>(manifests);
    copy.sort(Comparator.comparingLong(ManifestLocation::version));
    return copy;
  }
}
