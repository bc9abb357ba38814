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
 * <p>An entry without a base id lives in the manifest's own dataset's directory ({@link
 * DatasetRef#dir}). An entry with one lives under that {@link BasePath}: a dataset root keeps
 * Lance's sub-directories ({@code data/}, {@code _deletions/}, {@code _indices/}), a plain directory
 * holds the file directly. Base paths are spelled however the writer spelled them (absolute, a URI,
 * relative to the writer's working directory, through a symbolic link), so {@link
 * TableLocation#relativize} decides whether they are this table: a branch's reference into the main
 * table comes out as {@code data/x.lance}. A base outside the root yields an external reference,
 * which maintenance must leave alone.
 */
final class ReferenceResolver {
  private static final String DATA_DIR = "data";
  private static final String DELETIONS_DIR = "_deletions";
  private static final String INDICES_DIR = "_indices";
  private static final String TRANSACTIONS_DIR = "_transactions";

  private final TableLocation root;
  private final String table;
  private final DatasetRef dataset;
  private final String manifestPath;
  private final Map<Integer, BasePath> bases = new HashMap<>();
  /** Where each base lies in the table, worked out once per base (it may touch the file system). */
  private final Map<Integer, Optional<TableLocation.PathInTable>> relativeBases = new HashMap<>();

  ReferenceResolver(TableLocation root, DatasetRef dataset, String manifestPath, List<BasePath> basePaths) {
    this.root = root;
    this.table = root.toString();
    this.dataset = dataset;
    this.manifestPath = manifestPath;
    for (BasePath base : basePaths) {
      bases.put(base.id(), base);
    }
  }

  /** Every file {@code manifest} references, in manifest order. */
  static List<FileReference> referencesOf(TableLocation root, DatasetRef dataset, Manifest manifest) {
    ReferenceResolver resolver = new ReferenceResolver(root, dataset, manifest.path(), manifest.basePaths());
    List<FileReference> references = new ArrayList<>();
    for (Fragment fragment : manifest.fragments()) {
      for (DataFile file : fragment.files()) {
        references.add(resolver.data(file.baseId(), file.path()));
      }
      fragment.deletionFile().ifPresent(deletion -> references.add(resolver.deletion(fragment.id(), deletion)));
      for (String external : fragment.externalFiles()) {
        references.add(resolver.rowIds(external));
      }
    }
    for (IndexEntry index : manifest.indices()) {
      references.add(resolver.index(index.baseId(), index.uuid()));
    }
    resolver.transaction(manifest.transactionFile()).ifPresent(references::add);
    return references;
  }

  FileReference data(OptionalInt baseId, String path) {
    return resolve(FileKind.DATA, baseId, DATA_DIR, path);
  }

  FileReference deletion(long fragmentId, DeletionFile deletion) {
    return resolve(FileKind.DELETION, deletion.baseId(), DELETIONS_DIR, deletion.fileName(fragmentId));
  }

  /** Row-id and row-version sequences stored outside the manifest, relative to the dataset. */
  FileReference rowIds(String path) {
    return local(FileKind.ROW_ID, dataset.resolve(checked(FileKind.ROW_ID, path)));
  }

  FileReference index(OptionalInt baseId, String uuid) {
    return resolve(FileKind.INDEX, baseId, INDICES_DIR, uuid);
  }

  /** The manifest's transaction file, if it names one. */
  Optional<FileReference> transaction(String transactionFile) {
    if (transactionFile.isEmpty()) {
      return Optional.empty();
    }
    // Transaction files always sit with the manifest that names them.
    String below = TRANSACTIONS_DIR + "/" + checked(FileKind.TRANSACTION, transactionFile);
    return Optional.of(local(FileKind.TRANSACTION, dataset.resolve(below)));
  }

  private FileReference resolve(FileKind kind, OptionalInt baseId, String standardDir, String file) {
    checked(kind, file);
    if (baseId.isEmpty()) {
      return local(kind, dataset.resolve(standardDir + "/" + file));
    }
    BasePath base = bases.get(baseId.getAsInt());
    if (base == null) {
      throw new CorruptTableException(table, manifestPath, kind + " file " + file + " names base_id "
          + baseId.getAsInt() + ", which is not among the manifest's base paths " + bases.keySet());
    }
    String below = base.isDatasetRoot() ? standardDir + "/" + file : file;
    Optional<TableLocation.PathInTable> relative = relativeBases.computeIfAbsent(base.id(), id -> root.locate(base.path()));
    if (relative.isPresent()) {
      String path = checked(kind, TablePaths.join(relative.get().path(), below));
      return new FileReference(kind, path, false, relative.get().certain());
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
          table, path, kind + " reference in " + manifestPath + " must stay below its base");
      named.addSuppressed(e);
      throw named;
    }
  }
}
