package dev.lancemaintenance.format;

import dev.lancemaintenance.storage.PathEscapeException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TablePaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns the entries of one manifest into the files they name, relative to the table root.
 *
 * <p>An entry without a base id lives in the manifest's own dataset directory ({@code ""} or
 * {@code tree/<branch>}). An entry with one lives under that {@link BasePath}: a dataset root keeps
 * Lance's sub-directories ({@code data/}, {@code _deletions/}, {@code _indices/}), a plain directory
 * holds the file directly. Base paths are absolute and spelled however the writer spelled them, so
 * they are compared with the root in canonical form: a branch's reference into the main table comes
 * out as {@code data/x.lance}. A base outside the root yields an external reference, which
 * maintenance must leave alone.
 */
final class ReferenceResolver {
  private static final String DATA_DIR = "data";
  private static final String DELETIONS_DIR = "_deletions";
  private static final String INDICES_DIR = "_indices";
  private static final String TRANSACTIONS_DIR = "_transactions";

  private final TableLocation root;
  private final String table;
  private final String datasetDir;
  private final Manifest manifest;
  private final Map<Integer, BasePath> bases = new HashMap<>();

  ReferenceResolver(TableLocation root, String datasetDir, Manifest manifest) {
    this.root = root;
    this.table = root.toString();
    this.datasetDir = datasetDir;
    this.manifest = manifest;
    for (BasePath base : manifest.basePaths()) {
      bases.put(base.id(), base);
    }
  }

  List<FileReference> references() {
    List<FileReference> references = new ArrayList<>();
    for (Fragment fragment : manifest.fragments()) {
      for (DataFile file : fragment.files()) {
        references.add(resolve(FileKind.DATA, file.baseId(), DATA_DIR, file.path()));
      }
      fragment.deletionFile().ifPresent(deletion -> references.add(resolve(
          FileKind.DELETION, deletion.baseId(), DELETIONS_DIR, deletion.fileName(fragment.id()))));
      for (String external : fragment.externalFiles()) {
        references.add(local(FileKind.ROW_ID, TablePaths.join(datasetDir, checked(FileKind.ROW_ID, external))));
      }
    }
    for (IndexEntry index : manifest.indices()) {
      references.add(resolve(FileKind.INDEX, index.baseId(), INDICES_DIR, index.uuid()));
    }
    if (!manifest.transactionFile().isEmpty()) {
      // Transaction files always sit with the manifest that names them.
      String below = TRANSACTIONS_DIR + "/" + checked(FileKind.TRANSACTION, manifest.transactionFile());
      references.add(local(FileKind.TRANSACTION, TablePaths.join(datasetDir, below)));
    }
    return references;
  }

  private FileReference resolve(FileKind kind, OptionalInt baseId, String standardDir, String file) {
    checked(kind, file);
    if (baseId.isEmpty()) {
      return local(kind, TablePaths.join(datasetDir, standardDir + "/" + file));
    }
    BasePath base = bases.get(baseId.getAsInt());
    if (base == null) {
      throw new CorruptTableException(table, manifest.path(), kind + " file " + file + " names base_id "
          + baseId.getAsInt() + ", which is not among the manifest's base paths " + bases.keySet());
    }
    String below = base.isDatasetRoot() ? standardDir + "/" + file : file;
    Optional<String> relative = root.relativize(base.path());
    if (relative.isPresent()) {
      return local(kind, TablePaths.join(relative.get(), below));
    }
    String uri = base.path().endsWith("/") ? base.path() + below : base.path() + "/" + below;
    return new FileReference(kind, TableLocation.redact(uri), true);
  }

  private FileReference local(FileKind kind, String path) {
    return new FileReference(kind, checked(kind, path), false);
  }

  /** Rejects {@code ..}, absolute and empty-segment paths, naming the manifest that holds them. */
  private String checked(FileKind kind, String path) {
    try {
      return TablePaths.checkRelative(table, path);
    } catch (PathEscapeException e) {
      PathEscapeException named = new PathEscapeException(
          table, path, kind + " reference in " + manifest.path() + " must stay below its base");
      named.addSuppressed(e);
      throw named;
    }
  }
}
