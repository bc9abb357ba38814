package dev.lancemaintenance.cleanup.rules;

import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.TablePaths;
import java.util.List;
import java.util.Optional;

/**
 * The directories of a Lance dataset that cleanup manages, and the kind of each file in them it may
 * remove: the one place the layout is written, read by the planner (what to list), the reference
 * keys (which marks can meet a listed file) and the decision (which listed files are candidates).
 * Paths here are relative to the dataset being cleaned (the main table, or a branch's {@code
 * tree/<branch>}).
 *
 * <p>Candidates, as Lance 7's cleanup: data files ({@code data/**.lance}) and their blob sidecars
 * ({@code data/<stem>/<n>.blob}), deletion vectors ({@code _deletions/*.arrow|bin}), transaction
 * files ({@code _transactions/*.txn}), index files ({@code _indices/**}) and abandoned manifest
 * staging files ({@code _versions/.tmp*}). Everything else (refs, branches, hints, unknown files) is
 * never a candidate; manifests go only as the manifests of expired versions.
 */
public final class ManagedLayout {
  public static final String VERSIONS = "_versions";
  public static final String TRANSACTIONS = "_transactions";
  public static final String DELETIONS = "_deletions";
  public static final String INDICES = "_indices";
  public static final String DATA = "data";

  /** The managed directories, in the order the planner lists them (one listing task each). */
  public static final List<String> DIRECTORIES = List.of(VERSIONS, TRANSACTIONS, DELETIONS, INDICES, DATA);

  private static final String BLOB_SUFFIX = ".blob";

  private ManagedLayout() {}

  /** Whether {@code name} is a managed directory of a dataset ({@code data}, {@code _indices}, ...). */
  public static boolean isManagedDirectory(String name) {
    return DIRECTORIES.contains(name);
  }

  /**
   * The kind of a file cleanup may remove, or empty for a file it always leaves alone.
   *
   * @param path relative to the dataset being cleaned; null when the file lies outside it
   */
  public static Optional<FileKind> candidateKind(String path) {
    if (path == null) {
      return Optional.empty();
    }
    String name = TablePaths.fileName(path);
    if (path.startsWith(VERSIONS + "/")) {
      // Staging files of an interrupted rename commit; manifests themselves go only as expired versions.
      return name.startsWith(".tmp") ? Optional.of(FileKind.OTHER) : Optional.empty();
    }
    if (path.startsWith(INDICES + "/")) {
      return Optional.of(FileKind.INDEX);
    }
    if (path.startsWith(DATA + "/")) {
      if (name.endsWith(".lance")) {
        // At any depth below data/, as Lance 7 (data/sub/x.lance is a candidate too).
        return Optional.of(FileKind.DATA);
      }
      // Only data/<stem>/<n>.blob is a sidecar of data/<stem>.lance; deeper .blob files are kept.
      return name.endsWith(BLOB_SUFFIX) && isBlobSidecar(path) ? Optional.of(FileKind.BLOB) : Optional.empty();
    }
    if (path.startsWith(DELETIONS + "/")) {
      return name.endsWith(".arrow") || name.endsWith(".bin") ? Optional.of(FileKind.DELETION) : Optional.empty();
    }
    if (path.startsWith(TRANSACTIONS + "/")) {
      return name.endsWith(".txn") ? Optional.of(FileKind.TRANSACTION) : Optional.empty();
    }
    return Optional.empty();
  }

  /** Whether a dataset-relative path is exactly {@code data/<stem>/<file>.blob}, where Lance writes sidecars. */
  public static boolean isBlobSidecar(String path) {
    String data = DATA + "/";
    if (!path.startsWith(data) || !path.endsWith(BLOB_SUFFIX)) {
      return false;
    }
    int slash = path.indexOf('/', data.length());
    return slash > data.length() && path.indexOf('/', slash + 1) < 0;
  }
}
