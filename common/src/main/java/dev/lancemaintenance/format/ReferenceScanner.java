package dev.lancemaintenance.format;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import dev.lancemaintenance.proto.CleanupViewProtos;
import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.storage.TableLocation;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * all of their fragments byte for byte (an append adds one at the end, a delete rewrites one), so
 * the scanner never parses a fragment whose bytes it has met before: first one vectorised compare
 * finds how many leading fragments equal those of the previous manifest, which keep its {@link
 * ReferenceGroup}s; then each other fragment is compared with the last fragment met under its id.
 * Only fragments with new bytes are parsed and resolved. Reused groups are the same objects, which
 * lets the mark stage skip them too. A cached group is valid only under the base paths it was
 * resolved with, so the caches start over when a manifest's base paths differ from the previous
 * one's. Data files of the dataset's own directory are also shared across fragments (a delete
 * changes a fragment's bytes but not its data files). Memory: the distinct fragments of the
 * manifests it has seen and the last manifest's bytes, which a mark task bounds by scanning one
 * slice per scanner.
 */
public final class ReferenceScanner {
  /** Field 1 (the fragment id), varint. */
  private static final byte FRAGMENT_ID_TAG = 0x08;
  private final TableLocation root;
  private final DatasetRef dataset;
  private final Map<String, FileReference> localDataFiles = new HashMap<>();
  private final Map<Long, CachedFragment> fragments = new HashMap<>();
  private List<BasePath> fragmentBases = List.of();
  /** The manifest scanned last and its fragment groups, for the common case of a shared prefix. */
  private Scanned previous;

  public ReferenceScanner(TableLocation root, DatasetRef dataset) {
    this.root = root;
    this.dataset = dataset;
  }

  ScannedManifest scan(ManifestFile file, SplitManifest manifest, List<TableProtos.IndexMetadata> indices) {
    CleanupViewProtos.ManifestFilesView view = manifest.view();
    ManifestDecoder decoder = new ManifestDecoder(file);
    List<BasePath> bases = new ArrayList<>(view.getBasePathsCount());
    for (TableProtos.BasePath base : view.getBasePathsList()) {
      bases.add(ManifestDecoder.basePath(base));
    }
    if (!bases.equals(fragmentBases)) {
      fragments.clear();
      previous = null;
      fragmentBases = bases;
    }
    ReferenceResolver resolver = new ReferenceResolver(root, dataset, file.path(), bases);
    int shared = previous == null ? 0 : manifest.sharedLeadingFragments(previous.manifest());
    List<ReferenceGroup> groups = new ArrayList<>(manifest.fragmentCount() + 1);
    groups.addAll(previous == null ? List.of() : previous.groups().subList(0, shared));
    for (int i = shared; i < manifest.fragmentCount(); i++) {
      ByteBuffer bytes = manifest.fragmentBytes(i);
      long id = leadingId(bytes);
      CachedFragment cached = fragments.get(id);
      ReferenceGroup group;
      // The id only finds the candidate; equal bytes (a vectorised compare) make it the same fragment.
      if (cached != null && cached.bytes().equals(bytes)) {
        group = cached.group();
      } else {
        group = new ReferenceGroup(resolve(file, decoder, resolver, parseFragment(file, manifest.fragment(i))));
        fragments.put(id, new CachedFragment(copyOf(bytes), group));
      }
      groups.add(group);
    }
    previous = new Scanned(manifest, groups);
    List<FileReference> own = new ArrayList<>(indices.size() + 1);
    for (TableProtos.IndexMetadata index : indices) {
      own.add(resolver.index(ManifestDecoder.baseId(index.hasBaseId(), index.getBaseId()), decoder.uuid(index)));
    }
    resolver.transaction(view.getTransactionFile()).ifPresent(own::add);
    List<ReferenceGroup> all = new ArrayList<>(groups.size() + 1);
    all.addAll(groups);
    all.add(new ReferenceGroup(own));
    long timestamp = decoder.timestampNanos(view.hasTimestamp(), view.getTimestamp());
    return new ScannedManifest(file.path(), view.getVersion(), timestamp, all, shared);
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

  private record Scanned(SplitManifest manifest, List<ReferenceGroup> groups) {}

  /** A fragment met before: its serialized bytes (a copy, not pinning the manifest) and its files. */
  private record CachedFragment(ByteBuffer bytes, ReferenceGroup group) {}

  /**
   * The fragment id when the encoding starts with it (field 1, as every writer orders fields), or
   * -1. Only a cache key: a wrong or missing id costs a parse, never a wrong answer.
   */
  private static long leadingId(ByteBuffer bytes) {
    int position = bytes.position();
    if (!bytes.hasRemaining() || bytes.get(position) != FRAGMENT_ID_TAG) {
      return -1;
    }
    long id = 0;
    for (int shift = 0, i = position + 1; shift < 64 && i < bytes.limit(); shift += 7, i++) {
      byte b = bytes.get(i);
      id |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return id;
      }
    }
    return -1;
  }

  private static ByteBuffer copyOf(ByteBuffer bytes) {
    ByteBuffer copy = ByteBuffer.allocate(bytes.remaining());
    copy.put(bytes.duplicate()).flip();
    return copy;
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
