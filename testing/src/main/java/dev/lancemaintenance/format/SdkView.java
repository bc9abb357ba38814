package dev.lancemaintenance.format;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.Ref;
import org.lance.Version;
import org.lance.fragment.DeletionFileType;

/**
 * What the official SDK reports about a table, reduced to plain strings so that our reader's
 * answers can be compared with it directly. Opens and closes a dataset per question. Public for
 * the command line's tests, which check {@code inspect} against the same answers.
 */
public final class SdkView {
  private final String uri;
  private final Optional<String> branch;

  public SdkView(Path root, Optional<String> branch) {
    this.uri = root.toString();
    this.branch = branch;
  }

  /** Version number to commit time, as {@code Dataset.listVersions()} reports them. */
  public TreeMap<Long, Instant> versions() {
    return withLatest(dataset -> {
      TreeMap<Long, Instant> versions = new TreeMap<>();
      for (Version version : dataset.listVersions()) {
        versions.put(version.getId(), version.getDataTime().toInstant());
      }
      return versions;
    });
  }

  /** The fragments of {@code version}, one line each (see {@link #describe(FragmentMetadata)}). */
  List<String> fragments(long version) {
    return atVersion(version, dataset -> dataset.getFragments().stream()
        .map(fragment -> describe(fragment.metadata())).toList());
  }

  /** Index UUIDs of {@code version}. */
  List<String> indexUuids(long version) {
    return atVersion(version, dataset -> dataset.getIndexes().stream()
        .map(index -> index.uuid().toString()).sorted().toList());
  }

  /** Tags as {@code name -> branch@version/manifestSize}. */
  public List<String> tags() {
    return withLatest(dataset -> dataset.tags().list().stream()
        .map(tag -> tag.getName() + " -> " + tag.getBranch().orElse("main") + "@" + tag.getVersion()
            + "/" + tag.getManifestSize())
        .sorted().toList());
  }

  /** The latest version of this line, as the SDK opens it. */
  public long latestVersion() {
    return withLatest(Dataset::version);
  }

  /**
   * Table-relative paths of the data and deletion files {@code version} names in its own root
   * ({@code data/...}, {@code _deletions/{fragment}-{readVersion}-{id}.arrow|bin}), sorted; files
   * under another base path (a shallow clone's source) are left out, see {@link #foreignDataFiles}.
   */
  public List<String> ownDataAndDeletionFiles(long version) {
    return atVersion(version, dataset -> {
      List<String> files = new java.util.ArrayList<>();
      for (var fragment : dataset.getFragments()) {
        FragmentMetadata metadata = fragment.metadata();
        metadata.getFiles().stream()
            .filter(file -> file.getBaseId().isEmpty())
            .forEach(file -> files.add("data/" + file.getPath()));
        var deletion = metadata.getDeletionFile();
        if (deletion != null && deletion.getBaseId().isEmpty()) {
          String extension = deletion.getFileType() == DeletionFileType.BITMAP ? "bin" : "arrow";
          files.add("_deletions/" + metadata.getId() + "-" + deletion.getReadVersion() + "-"
              + Long.toUnsignedString(deletion.getId()) + "." + extension);
        }
      }
      return files.stream().sorted().toList();
    });
  }

  /** Data-file paths (relative to their base's {@code data/}) that {@code version} reads through a base path. */
  public List<String> foreignDataFiles(long version) {
    return atVersion(version, dataset -> dataset.getFragments().stream()
        .flatMap(fragment -> fragment.metadata().getFiles().stream())
        .filter(file -> file.getBaseId().isPresent())
        .map(file -> file.getPath())
        .sorted()
        .toList());
  }

  /** Branches as {@code name <- parent@version/createAt/manifestSize}. */
  public List<String> branches() {
    return withLatest(dataset -> dataset.branches().list().stream()
        .map(b -> b.getName() + " <- " + b.getParentBranch().orElse("main") + "@" + b.getParentVersion()
            + "/" + b.getCreateAt() + "/" + b.getManifestSize())
        .sorted().toList());
  }

  static String describe(FragmentMetadata fragment) {
    StringBuilder line = new StringBuilder().append(fragment.getId()).append(" files=");
    line.append(fragment.getFiles().stream()
        .map(file -> file.getPath() + file.getBaseId().map(id -> "@" + id).orElse("")).toList());
    if (fragment.getDeletionFile() != null) {
      var deletion = fragment.getDeletionFile();
      String type = deletion.getFileType() == DeletionFileType.BITMAP ? "BITMAP" : "ARROW";
      line.append(" deletion=").append(type).append('/').append(deletion.getReadVersion()).append('/')
          .append(Long.toUnsignedString(deletion.getId()))
          .append(deletion.getBaseId().map(id -> "@" + id).orElse(""));
    }
    return line.toString();
  }

  private <T> T withLatest(Function<Dataset, T> question) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = Dataset.open(uri, allocator)) {
      if (branch.isEmpty()) {
        return question.apply(main);
      }
      try (Dataset onBranch = main.checkout(Ref.ofBranch(branch.get()))) {
        return question.apply(onBranch);
      }
    }
  }

  private <T> T atVersion(long version, Function<Dataset, T> question) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset main = Dataset.open(uri, allocator);
        Dataset at = main.checkout(branch.map(b -> Ref.ofBranch(b, version)).orElse(Ref.ofMain(version)))) {
      return question.apply(at);
    }
  }
}
