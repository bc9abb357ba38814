package dev.lancemaintenance.benchmarks.generate;

import dev.lancemaintenance.format.ManifestNaming;
import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.proto.TransactionProtos;
import dev.lancemaintenance.proto.TransactionProtos.Transaction;
import com.google.protobuf.Timestamp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * Writes a large, valid Lance table of a {@link TableShape} in minutes where the SDK would need hours
 * commit by commit: data, deletion and index files come from a {@link SeedTable}; manifests and
 * transactions are ours, built from the seed's real manifest (schema, writer, format, config carried
 * over untouched) with the fragments of each version.
 *
 * <p>Commit times are spread evenly over the past: version 1 forty days before the clock's now, the
 * latest eight days before it, so every version is older than our engines' default {@code
 * older_than} (7 days; the SDK's policy has no default age) and a {@code before_version} cleanup
 * removes the same versions in every contender. Deterministic for a given seed table (fixed random
 * seed).
 */
public final class TableGenerator {
  private static final Duration HISTORY_START = Duration.ofDays(40);
  private static final Duration HISTORY_SPAN = Duration.ofDays(32);

  private final SeedTable seed;
  private final TableShape shape;
  private final TableFiles files;
  private final Instant start;
  private final Duration step;
  private final Random random = new Random(42);

  /** Fragments appended since the last compaction, oldest first. */
  private final List<TableProtos.DataFragment> fresh = new ArrayList<>();
  /** Outputs of earlier compactions, oldest first. */
  private final ArrayDeque<TableProtos.DataFragment> compacted = new ArrayDeque<>();
  private Optional<TableProtos.IndexMetadata> index = Optional.empty();
  private long nextFragmentId;
  private long dataFiles;
  private long manifestBytes;

  private TableGenerator(SeedTable seed, TableShape shape, TableFiles files, Instant now) {
    this.seed = seed;
    this.shape = shape;
    this.files = files;
    this.start = now.minus(HISTORY_START);
    this.step = HISTORY_SPAN.dividedBy(shape.latestVersion());
  }

  /**
   * Generates a table of {@code shape} at {@code root}, which must not exist. {@code clock} fixes
   * "now", from which commit times reach back.
   */
  public static GeneratedTable generate(
      SeedTable seed, TableShape shape, Path root, TableFiles.DataMode mode, Clock clock) {
    if (Files.exists(root)) {
      throw new IllegalArgumentException("refusing to generate into existing " + root);
    }
    long began = System.nanoTime();
    Instant now = clock.instant();
    TableFiles files = new TableFiles(root, mode, now.minus(HISTORY_START).minus(Duration.ofHours(1)));
    TableGenerator generator = new TableGenerator(seed, shape, files, now);
    long latest = generator.run();
    return new GeneratedTable(root, shape, latest, files.files(), files.bytes(), generator.manifestBytes,
        Duration.ofNanos(System.nanoTime() - began));
  }

  private long run() {
    for (String dir : List.of("_versions", "_transactions", "data", "_deletions", "_indices", "_refs/tags")) {
      files.createDirectories(dir);
    }
    long version = 1;
    commit(version, create());
    while (version < shape.versions()) {
      version++;
      commit(version, operationAt(version));
    }
    if (shape.finish() == TableShape.Finish.COMPACTED) {
      long reserved = nextFragmentId++;
      commit(++version, Transaction.newBuilder().setReserveFragments(
          Transaction.ReserveFragments.newBuilder().setNumFragments(1)));
      commit(++version, compactEverything(version, reserved));
    }
    for (int i = 0; i < shape.tailAppends(); i++) {
      version++;
      commit(version, append(version));
    }
    writeRefs(version);
    return version;
  }

  /** Version 1: an Overwrite (Lance's create) with as many fragments as an append. */
  private Transaction.Builder create() {
    return Transaction.newBuilder().setOverwrite(
        Transaction.Overwrite.newBuilder().addAllFragments(appendFragments(1)));
  }

  /** The operation of {@code version}, by the shape's rules (see {@link TableShape}). */
  private Transaction.Builder operationAt(long version) {
    if (due(version, shape.compactEvery())) {
      return compactOrRetire(version);
    }
    if (due(version, shape.deleteEvery())) {
      return deleteOneRow(version).orElseGet(() -> append(version));
    }
    if (due(version, shape.indexEvery())) {
      return replaceIndex(version);
    }
    return append(version);
  }

  private static boolean due(long version, int period) {
    return period > 0 && version % period == 0;
  }

  private Transaction.Builder append(long version) {
    return Transaction.newBuilder().setAppend(
        Transaction.Append.newBuilder().addAllFragments(appendFragments(version)));
  }

  /** The fragments one append of {@code version} writes, added to the fresh ones. */
  private List<TableProtos.DataFragment> appendFragments(long version) {
    List<TableProtos.DataFragment> added = new ArrayList<>();
    for (int i = 0; i < shape.fragmentsPerAppend(); i++) {
      added.add(newFragment(version, SeedTable.ROWS_PER_FRAGMENT, seed.dataFile()));
    }
    fresh.addAll(added);
    return added;
  }

  /** Deletes row 0 of the newest fragment that has no deletion file yet; empty when there is none. */
  private Optional<Transaction.Builder> deleteOneRow(long version) {
    for (int i = fresh.size() - 1; i >= 0; i--) {
      TableProtos.DataFragment fragment = fresh.get(i);
      if (!fragment.hasDeletionFile() && fragment.getPhysicalRows() == SeedTable.ROWS_PER_FRAGMENT) {
        long id = random.nextLong() >>> 1;
        TableProtos.DeletionFile deletion = seed.fragment().getDeletionFile().toBuilder()
            .setReadVersion(version - 1).setId(id).setNumDeletedRows(1).build();
        files.place(seed.deletionFile(),
            "_deletions/" + fragment.getId() + "-" + (version - 1) + "-" + Long.toUnsignedString(id) + ".arrow", commitTime(version));
        TableProtos.DataFragment updated = fragment.toBuilder().setDeletionFile(deletion).build();
        fresh.set(i, updated);
        return Optional.of(Transaction.newBuilder().setDelete(
            Transaction.Delete.newBuilder().addUpdatedFragments(updated).setPredicate("id = 0")));
      }
    }
    return Optional.empty();
  }

  /** A new index directory that replaces the current one (as an index rebuild does). */
  private Transaction.Builder replaceIndex(long version) {
    UUID uuid = new UUID(random.nextLong(), random.nextLong());
    String dir = "_indices/" + uuid;
    files.createDirectories(dir);
    for (SeedFile file : seed.indexFiles()) {
      files.place(file, dir + "/" + file.fileName(), commitTime(version));
    }
    TableProtos.IndexMetadata created = seed.index().toBuilder()
        .setUuid(IndexIds.of(uuid)).setDatasetVersion(version - 1).build();
    Transaction.CreateIndex.Builder op = Transaction.CreateIndex.newBuilder().addNewIndices(created);
    index.ifPresent(op::addRemovedIndices);
    index = Optional.of(created);
    return Transaction.newBuilder().setCreateIndex(op);
  }

  /**
   * Compacts the fresh fragments into one, or, when the retained compacted fragments are at their
   * limit, deletes the oldest of them (the retention delete of a streaming table).
   */
  private Transaction.Builder compactOrRetire(long version) {
    if (shape.retainedCompacted() > 0 && compacted.size() >= shape.retainedCompacted()) {
      TableProtos.DataFragment oldest = compacted.removeFirst();
      return Transaction.newBuilder().setDelete(
          Transaction.Delete.newBuilder().addDeletedFragmentIds(oldest.getId()).setPredicate("retention"));
    }
    if (fresh.isEmpty()) {
      return append(version);
    }
    return rewrite(version, nextFragmentId++, List.copyOf(fresh));
  }

  private Transaction.Builder compactEverything(long version, long reservedId) {
    List<TableProtos.DataFragment> all = new ArrayList<>(compacted);
    all.addAll(fresh);
    compacted.clear();
    return rewrite(version, reservedId, all);
  }

  private Transaction.Builder rewrite(long version, long fragmentId, List<TableProtos.DataFragment> old) {
    long rows = old.stream()
        .mapToLong(f -> f.getPhysicalRows() - (f.hasDeletionFile() ? f.getDeletionFile().getNumDeletedRows() : 0))
        .sum();
    TableProtos.DataFragment merged =
        fragment(fragmentId, version, rows, seed.dataFileWithRows(Math.toIntExact(rows)));
    // Every compaction here consumes all fresh fragments.
    fresh.clear();
    compacted.addLast(merged);
    return Transaction.newBuilder().setRewrite(Transaction.Rewrite.newBuilder().addGroups(
        Transaction.Rewrite.RewriteGroup.newBuilder().addAllOldFragments(old).addNewFragments(merged)));
  }

  private TableProtos.DataFragment newFragment(long version, long rows, SeedFile data) {
    return fragment(nextFragmentId++, version, rows, data);
  }

  private TableProtos.DataFragment fragment(long id, long version, long rows, SeedFile data) {
    String name = dataFileName();
    files.place(data, "data/" + name, commitTime(version));
    TableProtos.DataFile file = seed.fragment().getFiles(0).toBuilder()
        .setPath(name).setFileSizeBytes(data.size()).build();
    return seed.fragment().toBuilder()
        .setId(id).clearDeletionFile().setPhysicalRows(rows).clearFiles().addFiles(file).build();
  }

  /** Lance's shape of data file names: 24 binary digits, then 26 hex digits. */
  private String dataFileName() {
    String counter = Long.toBinaryString(dataFiles++ & 0xFFFFFF);
    byte[] noise = new byte[13];
    random.nextBytes(noise);
    return "0".repeat(24 - counter.length()) + counter + HexFormat.of().formatHex(noise) + ".lance";
  }

  private void commit(long version, Transaction.Builder operation) {
    UUID uuid = new UUID(random.nextLong(), random.nextLong());
    Transaction transaction = operation.setReadVersion(version - 1).setUuid(uuid.toString()).build();
    String transactionFile = (version - 1) + "-" + uuid + ".txn";
    Instant time = commitTime(version);
    files.write("_transactions/" + transactionFile, transaction.toByteArray(), time);

    TableProtos.Manifest.Builder manifest = seed.manifest().toBuilder()
        .clearFragments()
        .addAllFragments(compacted)
        .addAllFragments(fresh)
        .setVersion(version)
        .setTimestamp(Timestamp.newBuilder().setSeconds(time.getEpochSecond()).setNanos(time.getNano()))
        .setMaxFragmentId(Math.toIntExact(nextFragmentId - 1))
        .setTransactionFile(transactionFile);
    Optional<TableProtos.IndexSection> indices =
        index.map(i -> TableProtos.IndexSection.newBuilder().addIndices(i).build());
    byte[] bytes = ManifestBytes.encode(transaction, indices, manifest);
    files.write(manifestPath(version), bytes, time);
    manifestBytes += bytes.length;
  }

  private static String manifestPath(long version) {
    return "_versions/" + ManifestNaming.V2.fileName(version);
  }

  /** Tags on the newest versions and the latest-version hint, as the SDK writes them. */
  private void writeRefs(long latest) {
    Instant now = commitTime(latest);
    for (int i = 0; i < shape.tags(); i++) {
      long version = latest - i;
      String json = String.format(
          "{\"branch\":null,\"version\":%d,\"createdAt\":\"%s\",\"updatedAt\":\"%s\",\"manifestSize\":%d,\"metadata\":{}}",
          version, now, now, size(manifestPath(version)));
      files.write("_refs/tags/keep-" + version + ".json", json.getBytes(StandardCharsets.UTF_8), now);
    }
    files.write("_versions/latest_version_hint.json",
        ("{\"version\":" + latest + "}").getBytes(StandardCharsets.UTF_8), now);
  }

  private long size(String path) {
    try {
      return Files.size(files.root().resolve(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Instant commitTime(long version) {
    return start.plus(step.multipliedBy(version));
  }
}
