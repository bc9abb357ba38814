package dev.lancemaintenance.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.Ref;
import org.lance.Version;
import org.lance.WriteParams;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.merge.MergeInsertParams;
import org.lance.operation.Append;

/**
 * A real Lance table written by the official SDK at test time, driven by verbs that each commit
 * through the SDK and return the version they produced. A fixture is a handle on one line of
 * history: the main table, one of its branches, or a shallow clone (which is a table of its own).
 *
 * <p>Rows are derived from their id (see {@link FixtureRows}); an append that produces version
 * {@code v} writes ids starting at {@link #firstId(long) firstId(v)}, so ids never repeat along a
 * line of history and tests can name rows without reading the table.
 *
 * <p>Tables on an object store ({@link #createAt}) support the main-line verbs; everything that
 * needs a local directory (files, mtimes, branches, clones) is for local tables only.
 */
public final class LanceTableFixture {
  /** Distance between the first ids of two versions; one append writes fewer rows than this. */
  public static final long ID_STRIDE = 1_000_000L;

  /** Where the SDK finds the table: an absolute local path, or a URI such as s3://bucket/t. */
  private final String location;
  /** The same directory on local disk; empty for tables on an object store. */
  private final Optional<Path> localRoot;
  private final Optional<String> branch;
  private final FixtureOptions options;

  private LanceTableFixture(Path root, Optional<String> branch, FixtureOptions options) {
    this(root.toAbsolutePath().normalize().toString(),
        Optional.of(root.toAbsolutePath().normalize()), branch, options);
  }

  private LanceTableFixture(
      String location, Optional<Path> localRoot, Optional<String> branch, FixtureOptions options) {
    this.location = Objects.requireNonNull(location, "location");
    this.localRoot = Objects.requireNonNull(localRoot, "localRoot");
    this.branch = Objects.requireNonNull(branch, "branch");
    this.options = Objects.requireNonNull(options, "options");
  }

  /** A fixture whose table does not exist yet; the first append or overwrite creates it. */
  public static LanceTableFixture create(Path dir) {
    return create(dir, FixtureOptions.defaults());
  }

  public static LanceTableFixture create(Path dir, FixtureOptions options) {
    return new LanceTableFixture(dir, Optional.empty(), options);
  }

  /**
   * A fixture whose table will live at {@code uri} on an object store (for example {@code
   * s3://bucket/t.lance}); {@code options} carry the SDK's storage options for it.
   */
  public static LanceTableFixture createAt(String uri, FixtureOptions options) {
    return new LanceTableFixture(uri, Optional.empty(), Optional.empty(), options);
  }

  /** A handle on an existing table's main branch (a twin copy, a clone written elsewhere). */
  public static LanceTableFixture open(Path dir) {
    return new LanceTableFixture(dir, Optional.empty(), FixtureOptions.defaults());
  }

  /** First id of the rows an append producing {@code version} writes. */
  public static long firstId(long version) {
    return version * ID_STRIDE;
  }

  // ---------------------------------------------------------------- verbs

  /** Appends {@code rows} new rows as one fragment (one data file). */
  public long append(int rows) {
    checkRowCount(rows);
    long version = nextVersion();
    if (branch.isPresent()) {
      appendOnBranch(firstId(version), rows);
    } else {
      writeMain(exists() ? WriteParams.WriteMode.APPEND : WriteParams.WriteMode.CREATE,
          firstId(version), rows);
    }
    return latestVersion();
  }

  /** Replaces the whole table by {@code rows} new rows; main line only. */
  public long overwrite(int rows) {
    checkRowCount(rows);
    if (branch.isPresent()) {
      throw new UnsupportedOperationException("overwrite on branch " + branch.get());
    }
    long version = nextVersion();
    writeMain(exists() ? WriteParams.WriteMode.OVERWRITE : WriteParams.WriteMode.CREATE,
        firstId(version), rows);
    return latestVersion();
  }

  /** Deletes the rows matching an SQL predicate (writes deletion files, or drops fragments). */
  public long deleteWhere(String predicate) {
    try (OpenedTable table = openLatest()) {
      table.dataset().delete(predicate);
    }
    return latestVersion();
  }

  /**
   * Rewrites rows {@code firstId .. firstId + count - 1} that still exist with revision = the new
   * version, through merge-insert (matched rows updated, unmatched source rows ignored): the old
   * rows get deleted in their fragments and the new ones land in a new fragment.
   */
  public long update(long firstId, int count) {
    checkRowCount(count);
    long revision = nextVersion();
    try (OpenedTable table = openLatest()) {
      BufferAllocator allocator = table.allocator();
      ArrowReader rows = FixtureRows.reader(allocator, firstId, count, revision);
      try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, rows, stream);
        MergeInsertParams params =
            new MergeInsertParams(List.of(FixtureRows.ID))
                .withMatchedUpdateAll()
                .withNotMatched(MergeInsertParams.WhenNotMatched.DoNothing);
        table.keep(table.dataset().mergeInsert(params, stream).dataset());
      }
    }
    return latestVersion();
  }

  /** Builds (or rebuilds, replacing the old one) a scalar index on {@code column}. */
  public long createScalarIndex(String column, ScalarIndexKind kind) {
    IndexParams params =
        IndexParams.builder()
            .setScalarIndexParams(ScalarIndexParams.create(kind.paramsName()))
            .build();
    return createIndex(column, kind.sdkType(), params);
  }

  /** Builds (or rebuilds) an IVF_FLAT vector index with two partitions on {@code column}. */
  public long createVectorIndex(String column) {
    IndexParams params =
        IndexParams.builder()
            .setVectorIndexParams(VectorIndexParams.ivfFlat(2, DistanceType.L2))
            .build();
    return createIndex(column, IndexType.IVF_FLAT, params);
  }

  /** Runs the SDK's compaction with default options (merges small fragments, remaps indices). */
  public long compact() {
    try (OpenedTable table = openLatest()) {
      table.dataset().compact();
    }
    return latestVersion();
  }

  /**
   * Lance's Restore: commits {@code version}'s content as a new version of this line, so files the
   * versions in between dropped are referenced again.
   */
  public long restore(long version) {
    try (OpenedTable table = openLatest()) {
      table.keep(table.dataset().checkoutVersion(version)).restore();
    }
    return latestVersion();
  }

  /** Tags {@code version} of this line of history. */
  public void tag(String name, long version) {
    try (OpenedTable table = openLatest()) {
      table.dataset().tags().create(name, refOf(version));
    }
  }

  /** The tags as the SDK lists them, by name. */
  public java.util.SortedMap<String, org.lance.Tag> sdkTags() {
    try (OpenedTable table = openLatest()) {
      java.util.SortedMap<String, org.lance.Tag> tags = new java.util.TreeMap<>();
      table.dataset().tags().list().forEach(tag -> tags.put(tag.getName(), tag));
      return tags;
    }
  }

  public void deleteTag(String name) {
    try (OpenedTable table = openLatest()) {
      table.dataset().tags().delete(name);
    }
  }

  /**
   * Sets table config keys on this line (a branch checkout's config is the branch's own), e.g.
   * {@code lance.auto_cleanup.interval}. Lance may run its auto-cleanup on this very commit.
   */
  public long updateConfig(Map<String, String> config) {
    try (OpenedTable table = openLatest()) {
      table.dataset().updateConfig(config);
    }
    return latestVersion();
  }

  /**
   * Writes {@code rows} new rows as a fragment through the SDK ({@code Fragment.create}) and never
   * commits it: what a writer that died or lost its commit leaves behind, the orphans {@code
   * remove_orphan_files} is for. On a branch handle the fragment lands in the branch's directory.
   *
   * @return the table-relative paths of the files the write left, sorted
   */
  public List<String> writeUncommitted(int rows) {
    return writeUncommitted(rows, new WriteParams.Builder().build());
  }

  /**
   * As {@link #writeUncommitted(int)}, in data files of at most {@code rowsPerFile} rows each: many
   * orphans from one write, as a writer that died after writing a large fragment set leaves them.
   */
  public List<String> writeUncommitted(int rows, int rowsPerFile) {
    return writeUncommitted(rows, new WriteParams.Builder().withMaxRowsPerFile(rowsPerFile).build());
  }

  private List<String> writeUncommitted(int rows, WriteParams params) {
    checkRowCount(rows);
    String target = branch.map(b -> root().resolve("tree").resolve(b).toString()).orElse(uri());
    List<String> before = listFiles();
    try (OpenedTable table = openLatest();
        VectorSchemaRoot batch = FixtureRows.batch(table.allocator(), firstId(nextVersion()) + ID_STRIDE / 2, rows, 0)) {
      Fragment.create(target, table.allocator(), batch, params);
    }
    List<String> written = new java.util.ArrayList<>(listFiles());
    written.removeAll(before);
    return written;
  }

  /** Forks a branch at {@code fromVersion} of this line; the handle writes to the branch. */
  public LanceTableFixture createBranch(String name, long fromVersion) {
    try (OpenedTable table = openLatest()) {
      table.keep(table.dataset().createBranch(name, refOf(fromVersion)));
    }
    return branch(name);
  }

  /** A handle on an existing branch of this table. */
  public LanceTableFixture branch(String name) {
    return new LanceTableFixture(location, localRoot, Optional.of(name), options);
  }

  /** A shallow clone of {@code version} of this line at {@code target}. */
  public LanceTableFixture shallowClone(Path target, long version) {
    return cloneOf(target, refOf(version));
  }

  /** A shallow clone of the version {@code tag} points at. */
  public LanceTableFixture shallowCloneOfTag(Path target, String tag) {
    return cloneOf(target, Ref.ofTag(tag));
  }

  // ---------------------------------------------------------------- queries

  /** Root directory of the table (of the main table for a branch handle); local tables only. */
  public Path root() {
    return localRoot.orElseThrow(
        () -> new UnsupportedOperationException(location + " is not on local disk"));
  }

  /** The location string the SDK is given; always this absolute, normalised spelling. */
  public String uri() {
    return location;
  }

  /** The storage options every SDK call on this table gets (empty for local tables). */
  public Map<String, String> storageOptions() {
    return options.storageOptions();
  }

  public Optional<String> branchName() {
    return branch;
  }

  /** Latest version of this line of history; 0 before the first write. */
  public long latestVersion() {
    if (!exists()) {
      return 0;
    }
    try (OpenedTable table = openLatest()) {
      return table.dataset().version();
    }
  }

  /** Versions the SDK lists for this line of history, ascending. */
  public List<Long> versions() {
    return sdkVersions().stream().map(Version::getId).sorted().toList();
  }

  /** Timestamp recorded in the manifest of {@code version}, as the SDK reports it. */
  public Instant manifestTimestamp(long version) {
    return sdkVersions().stream()
        .filter(v -> v.getId() == version)
        .findFirst()
        .map(v -> v.getDataTime().toInstant())
        .orElseThrow(() -> new IllegalArgumentException(
            "version " + version + " is not listed in " + describe()));
  }

  /** Rows visible in the latest version of this line. */
  public long countRows() {
    try (OpenedTable table = openLatest()) {
      return table.dataset().countRows();
    }
  }

  /** Sorted table-relative paths of every regular file under the root, with {@code /}. */
  public List<String> listFiles() {
    return FileTimes.listFiles(root());
  }

  /** Absolute path of a table-relative file. */
  public Path resolve(String relativePath) {
    Path root = root();
    Path file = root.resolve(relativePath).normalize();
    if (!file.startsWith(root)) {
      throw new IllegalArgumentException("path " + relativePath + " escapes " + root);
    }
    return file;
  }

  // ---------------------------------------------------------------- files

  /** Writes a file no manifest references, with the given modification time. */
  public Path plant(String relativePath, byte[] content, Instant mtime) {
    Path file = resolve(relativePath);
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot plant " + file, e);
    }
    FileTimes.setModificationTime(file, mtime);
    return file;
  }

  public void setModificationTime(String relativePath, Instant mtime) {
    FileTimes.setModificationTime(resolve(relativePath), mtime);
  }

  public Instant modificationTime(String relativePath) {
    return FileTimes.modificationTime(resolve(relativePath));
  }

  /** Moves every file's mtime (manifest timestamps stay: they are inside the manifests). */
  public void shiftAllModificationTimes(Duration shift) {
    FileTimes.shiftAll(root(), shift);
  }

  @Override
  public String toString() {
    return describe();
  }

  // ---------------------------------------------------------------- internals

  private long createIndex(String column, IndexType type, IndexParams params) {
    try (OpenedTable table = openLatest()) {
      table.dataset().createIndex(List.of(column), type, Optional.empty(), params, true);
    }
    return latestVersion();
  }

  private LanceTableFixture cloneOf(Path target, Ref ref) {
    Path absoluteTarget = target.toAbsolutePath().normalize();
    try (OpenedTable table = openLatest()) {
      table.keep(table.dataset().shallowClone(absoluteTarget.toString(), ref));
    }
    return new LanceTableFixture(absoluteTarget, Optional.empty(), options);
  }

  private void writeMain(WriteParams.WriteMode mode, long firstId, int rows) {
    WriteParams params =
        new WriteParams.Builder()
            .withMode(mode)
            .withEnableV2ManifestPaths(options.manifestNaming() == FixtureOptions.ManifestNaming.V2)
            .withEnableStableRowIds(options.rowIds() == FixtureOptions.RowIds.STABLE)
            .withStorageOptions(options.storageOptions())
            .build();
    try (BufferAllocator allocator = new RootAllocator();
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      // The exported stream owns the reader and closes it when the SDK releases the stream.
      Data.exportArrayStream(allocator, FixtureRows.reader(allocator, firstId, rows, 0), stream);
      Dataset.create(allocator, stream, uri(), params).close();
    }
  }

  /**
   * The SDK's write builders take a table URI, not a branch; a branch append therefore writes
   * the fragment into the branch directory and commits an Append transaction on the branch handle.
   */
  private void appendOnBranch(long firstId, int rows) {
    String branchUri = root().resolve("tree").resolve(branch.orElseThrow()).toString();
    try (OpenedTable table = openLatest();
        VectorSchemaRoot batch = FixtureRows.batch(table.allocator(), firstId, rows, 0)) {
      List<FragmentMetadata> fragments =
          Fragment.create(branchUri, table.allocator(), batch, new WriteParams.Builder().build());
      Dataset committed =
          table.dataset().newTransactionBuilder()
              .operation(Append.builder().fragments(fragments).build())
              .build()
              .commit();
      table.keep(committed);
    }
  }

  private Ref refOf(long version) {
    return branch.map(b -> Ref.ofBranch(b, version)).orElseGet(() -> Ref.ofMain(version));
  }

  private List<Version> sdkVersions() {
    try (OpenedTable table = openLatest()) {
      return table.dataset().listVersions();
    }
  }

  private OpenedTable openLatest() {
    return OpenedTable.latest(uri(), branch, options.storageOptions());
  }

  private long nextVersion() {
    return latestVersion() + 1;
  }

  private boolean exists() {
    if (localRoot.isPresent()) {
      return Files.isDirectory(localRoot.get().resolve("_versions"));
    }
    // An object store has no directories to look at: ask the SDK whether a version is there.
    try (OpenedTable table = openLatest()) {
      return true;
    } catch (Exception notThere) {
      return false;
    }
  }

  private static void checkRowCount(int rows) {
    if (rows <= 0 || rows >= ID_STRIDE) {
      throw new IllegalArgumentException("rows must be in 1.." + (ID_STRIDE - 1) + ": " + rows);
    }
  }

  private String describe() {
    return "table " + location + branch.map(b -> " branch " + b).orElse("");
  }
}
