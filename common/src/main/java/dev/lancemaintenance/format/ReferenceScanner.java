package dev.lancemaintenance.format;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import dev.lancemaintenance.proto.CleanupViewProtos;
import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.storage.TableLocation;
import java.io.IOException;
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
 * <p>One scanner serves consecutive manifests of one dataset. Consecutive versions repeat almost
 * all of their fragments byte for byte (an append adds one, a delete rewrites one), so the scanner
 * keys each fragment by its serialized bytes and parses and resolves a fragment only the first time
 * it meets those bytes; later manifests get the same {@link ReferenceGroup} object, which lets the
 * mark stage skip it too. A cached group is valid only under the base paths it was resolved with,
 * so the cache starts over when a manifest's base paths differ from the previous one's. Data files
 * of the dataset's own directory are also shared across fragments (a delete changes a fragment's
 * bytes but not its data files). Memory grows with the distinct fragments of the manifests it has
 * seen, which a mark task bounds by scanning one slice per scanner.
 */
public final class ReferenceScanner {
  private final TableLocation root;
  private final String datasetDir;
  private final Map<String, FileReference> localDataFiles = new HashMap<>();
  private final Map<ByteString, ReferenceGroup> fragments = new HashMap<>();
  private List<BasePath> fragmentBases = List.of();

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
    if (!bases.equals(fragmentBases)) {
      fragments.clear();
      fragmentBases = bases;
    }
    ReferenceResolver resolver = new ReferenceResolver(root, datasetDir, file.path(), bases);
    List<ReferenceGroup> groups = new ArrayList<>(view.getFragmentsCount() + 1);
    for (ByteString serialized : view.getFragmentsList()) {
      ReferenceGroup group = fragments.get(serialized);
      if (group == null) {
        group = new ReferenceGroup(resolve(file, decoder, resolver, parseFragment(file, serialized)));
        // A copy, so the cache does not pin the whole manifest the bytes alias.
        fragments.put(ByteString.copyFrom(serialized.asReadOnlyByteBuffer()), group);
      }
      groups.add(group);
    }
    List<FileReference> own = new ArrayList<>(indices.size() + 1);
    for (TableProtos.IndexMetadata index : indices) {
      own.add(resolver.index(ManifestDecoder.baseId(index.hasBaseId(), index.getBaseId()), decoder.uuid(index)));
    }
    resolver.transaction(view.getTransactionFile()).ifPresent(own::add);
    groups.add(new ReferenceGroup(own));
    return new ScannedManifest(file.path(), view.getVersion(), decoder.timestampNanos(view.hasTimestamp(), view.getTimestamp()), groups);
  }

  private List<FileReference> resolve(
      ManifestFile file, ManifestDecoder decoder, ReferenceResolver resolver, CleanupViewProtos.FragmentFilesView fragment) {
    if (fragment.getOverlaysCount() > 0) {
      throw file.unsupported("data overlay files (fragment " + Long.toUnsignedString(fragment.getId()) + ")");
    }
    List<FileReference> references = new ArrayList<>(fragment.getFilesCount() + 1);
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
    return references;
  }

  private static CleanupViewProtos.FragmentFilesView parseFragment(ManifestFile file, ByteString serialized) {
    try {
      CodedInputStream input = serialized.newCodedInput();
      input.enableAliasing(true);
      return CleanupViewProtos.FragmentFilesView.parseFrom(input);
    } catch (IOException e) {
      throw file.corrupt("fragment is not a valid protobuf message: " + e.getMessage(), e);
    }
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
