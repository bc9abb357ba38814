package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.cleanup.plan.BranchLineage;
import dev.lancemaintenance.format.CorruptTableException;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.Manifest;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.RefReader;
import dev.lancemaintenance.format.UnsupportedFeatureException;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code clean_referenced_branches}, as Lance 7 does it: before cleaning a dataset, clean each of
 * its referenced branches (descendants whose fork point in the dataset the policy would remove) with
 * the policy the branch's own config asks for ({@link AutoCleanupConfig}). Branches without {@code
 * lance.auto_cleanup.interval} are not cleaned. Reads a handful of manifests on the driver: the fork
 * points and each referenced branch's latest.
 */
public final class ReferencedBranches {
  private ReferencedBranches() {}

  /**
   * The cleanups to run before {@code cleanup}, deepest branch first; empty when it does not
   * cascade, and then without opening the table's storage: opening a client costs a run CPU in a
   * row before its plan (an s3a client, some 10 ms), for a default policy that reads nothing here.
   */
  public static List<DatasetCleanup> cascadeOf(TableStorageFactory stores, TableLocation table, DatasetCleanup cleanup) {
    if (!cleanup.policy().cleanReferencedBranches()) {
      return List.of();
    }
    try (TableStorage storage = stores.open(table)) {
      return cascadeOf(storage, cleanup);
    }
  }

  /** The cascade of a {@code cleanup} whose policy cascades, read from the open table. */
  private static List<DatasetCleanup> cascadeOf(TableStorage storage, DatasetCleanup cleanup) {
    String table = storage.location().toString();
    Map<Long, ManifestLocation> ownVersions = new HashMap<>();
    VersionListing.list(storage, cleanup.dataset()).forEach(location -> ownVersions.put(location.version(), location));
    CleanupPolicy resolved = cleanup.policy().forVersions(ownVersions.keySet().stream().sorted().toList());
    List<DatasetCleanup> cascade = new ArrayList<>();
    Optional<String> cleaned = cleanup.dataset().branchName();
    for (BranchLineage.Descendant descendant : BranchLineage.descendantsOf(cleaned, RefReader.listBranches(storage))) {
      if (!forkPointQualifies(storage, ownVersions.get(descendant.forkVersion()), resolved)) {
        continue;
      }
      DatasetRef branch = descendant.branch().dataset();
      List<ManifestLocation> versions = VersionListing.list(storage, branch);
      if (versions.isEmpty()) {
        continue;
      }
      Manifest latest = ManifestReader.read(storage, versions.get(versions.size() - 1));
      AutoCleanupConfig.cascadePolicy(latest, versions, cleanup.now(), branch.describe(table))
          .ifPresent(policy -> cascade.add(new DatasetCleanup(branch, policy, cleanup.now())));
    }
    return cascade;
  }

  /**
   * Whether the policy would remove the fork point. Lance drops a branch whose fork-point manifest
   * it cannot read, silently; so do we (it only means that branch is not cleaned).
   */
  private static boolean forkPointQualifies(TableStorage storage, ManifestLocation forkPoint, CleanupPolicy policy) {
    if (forkPoint == null) {
      return false;
    }
    try {
      Manifest manifest = ManifestReader.read(storage, forkPoint);
      return policy.qualifies(manifest.version(), manifest.timestampNanos());
    } catch (CorruptTableException | UnsupportedFeatureException unreadable) {
      return false;
    }
  }
}
