package dev.lancemaintenance.cleanup.stage;

/**
 * Maps a listed file to the key under which manifests reference it, so that the decision can
 * co-group listings and references by key:
 *
 * <ul>
 *   <li>every file below {@code _indices/<uuid>/} belongs to index {@code _indices/<uuid>}: Lance
 *       references an index by its directory and keeps or drops the directory as a whole;
 *   <li>a blob sidecar {@code data/<stem>/<n>.blob} belongs to the data file {@code
 *       data/<stem>.lance} that points into it, and lives and dies with it;
 *   <li>anything else is its own key.
 * </ul>
 */
public final class ReferenceKeys {
  private static final String INDICES = "_indices/";
  private static final String DATA = "data/";
  private static final String BLOB_SUFFIX = ".blob";

  private ReferenceKeys() {}

  /** The reference key of a table-relative path. */
  public static String keyOf(String path) {
    if (path.startsWith(INDICES)) {
      int end = path.indexOf('/', INDICES.length());
      return end < 0 ? path : path.substring(0, end);
    }
    if (isBlobSidecar(path)) {
      return path.substring(0, path.lastIndexOf('/')) + ".lance";
    }
    return path;
  }

  /** Whether {@code path} is exactly {@code data/<stem>/<file>.blob}, the place Lance writes sidecars. */
  static boolean isBlobSidecar(String path) {
    if (!path.startsWith(DATA) || !path.endsWith(BLOB_SUFFIX)) {
      return false;
    }
    int slash = path.indexOf('/', DATA.length());
    return slash > DATA.length() && path.indexOf('/', slash + 1) < 0;
  }

  /** A stable partition of a key among {@code partitions}, the same in every engine. */
  public static int partitionOf(String key, int partitions) {
    return Math.floorMod(key.hashCode(), partitions);
  }
}
