package dev.lancemaintenance.format;

import dev.lancemaintenance.proto.CleanupViewProtos;
import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.storage.TableLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Decodes only the file-naming fields of manifests (see {@code cleanup_view.proto}) and resolves
 * them with the same {@link ReferenceResolver} as the full decode, so the two cannot disagree on
 * what a name means.
 *
 * <p>One scanner serves consecutive manifests of one dataset. Consecutive versions share almost all
 * of their data files, so it remembers the references it has resolved for data files of the
 * dataset's own directory and hands out the same objects again: memory grows with the distinct data
 * files of the manifests it has seen, which a mark task bounds by scanning one slice per scanner.
 */
public final class ReferenceScanner {
  private final TableLocation root;
  private final String datasetDir;
  private final Map<String, FileReference> localDataFiles = new HashMap<>();

  public ReferenceScanner(TableLocation root, String datasetDir) {
    this.root = root;
    this.datasetDir = datasetDir;
  }

  ScannedManifest scan(ManifestFile file, CleanupViewProtos.ManifestFilesView view, List<TableProtos.IndexMetadata> indices) {
    ManifestDecoder decoder = new ManifestDecoder(file);
    List<BasePath> bases = new ArrayList<>(view.getBasePathsCount());
    for (TableProtos.BasePath base : view.getBasePathsList()) {
      bases.add(ManifestDecoder.basePath(base));
    }
    ReferenceResolver resolver = new ReferenceResolver(root, datasetDir, file.path(), bases);
    List<FileReference> references = new ArrayList<>();
    for (CleanupViewProtos.FragmentFilesView fragment : view.getFragmentsList()) {
      if (fragment.getOverlaysCount() > 0) {
        throw file.unsupported("data overlay files (fragment " + Long.toUnsignedString(fragment.getId()) + ")");
      }
      for (CleanupViewProtos.DataFileView data : fragment.getFilesList()) {
        references.add(data.hasBaseId()
            ? resolver.data(OptionalInt.of(data.getBaseId()), data.getPath())
            : localDataFiles.computeIfAbsent(data.getPath(), path -> resolver.data(OptionalInt.empty(), path)));
      }
      if (fragment.hasDeletionFile()) {
        references.add(resolver.deletion(fragment.getId(), decoder.deletionFile(fragment.getDeletionFile(), fragment.getId())));
      }
      for (String external : externalFiles(fragment)) {
        references.add(resolver.rowIds(external));
      }
    }
    for (TableProtos.IndexMetadata index : indices) {
      references.add(resolver.index(ManifestDecoder.baseId(index.hasBaseId(), index.getBaseId()), decoder.uuid(index)));
    }
    resolver.transaction(view.getTransactionFile()).ifPresent(references::add);
    return new ScannedManifest(file.path(), view.getVersion(), decoder.timestampNanos(view.hasTimestamp(), view.getTimestamp()), references);
  }

  private static List<String> externalFiles(CleanupViewProtos.FragmentFilesView fragment) {
    List<String> externals = new ArrayList<>(0);
    if (fragment.hasExternalRowIds()) {
      externals.add(fragment.getExternalRowIds().getPath());
    }
    if (fragment.hasExternalLastUpdatedAtVersions()) {
      externals.add(fragment.getExternalLastUpdatedAtVersions().getPath());
    }
    if (fragment.hasExternalCreatedAtVersions()) {
      externals.add(fragment.getExternalCreatedAtVersions().getPath());
    }
    return externals;
  }

}
