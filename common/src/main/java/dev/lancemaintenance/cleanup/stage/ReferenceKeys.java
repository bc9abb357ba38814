package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.format.DatasetRef;

/**
 * Maps a listed file to the key under which manifests reference it, so that the decision can
 * co-group listings and references by key. Paths are table-relative; the rules apply to the path
 * relative to the dataset being cleaned (the main line or a branch), since a branch name may itself
 * contain {@code /} and cannot be told from the path alone:
 *
 * <ul>
 *   <li>every file below {@code <dataset>/_indices/<uuid>/} belongs to index {@code
 *       <dataset>/_indices/<uuid>}: Lance references an index by its directory and keeps or drops
 *       the directory as a whole;
 *   <li>a blob sidecar {@code <dataset>/data/<stem>/<n>.blob} belongs to the data file {@code
 *       <dataset>/data/<stem>.lance} that points into it, and lives and dies with it;
 *   <li>anything else is its own key.
 * </ul>
 */
public final class ReferenceKeys {
  private static final String INDICES = ManagedLayout.INDICES + "/";

  private ReferenceKeys() {}

  /** The reference key of a table-relative {@code path} listed in {@code dataset}. */
  public static String keyOf(DatasetRef dataset, String path) {
    String inDataset = dataset.relativize(path);
    if (inDataset == null) {
      return path;
    }
    if (inDataset.startsWith(INDICES)) {
      int end = inDataset.indexOf('/', INDICES.length());
      return end < 0 ? path : dataset.resolve(inDataset.substring(0, end));
    }
    if (ManagedLayout.isBlobSidecar(inDataset)) {
      return dataset.resolve(inDataset.substring(0, inDataset.lastIndexOf('/')) + ".lance");
    }
    return path;
  }

  /**
   * Whether a table-relative path lies in one of the managed directories of {@code dataset}: what
   * a walk of those directories would show. A reference key outside can never meet a listed file,
   * so its mark is dropped early (a branch's own files during a cleanup of main, main's files
   * during a cleanup of a branch); an inventory's or a view's row outside is not listed.
   */
  public static boolean isInDataset(DatasetRef dataset, String key) {
    String inDataset = dataset.relativize(key);
    if (inDataset == null) {
      return false;
    }
    int slash = inDataset.indexOf('/');
    return slash > 0 && ManagedLayout.isManagedDirectory(inDataset.substring(0, slash));
  }

  /** A stable partition of a key among {@code partitions}, the same in every engine. */
  public static int partitionOf(String key, int partitions) {
    return Math.floorMod(key.hashCode(), partitions);
  }
}
