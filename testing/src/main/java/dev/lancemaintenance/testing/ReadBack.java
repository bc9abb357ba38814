package dev.lancemaintenance.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Branch;
import org.lance.Dataset;
import org.lance.Ref;
import org.lance.Tag;
import org.lance.Version;

/**
 * Reads a table back through the SDK after a cleanup: every listed version of main and of each
 * branch and every tag, in full (all columns of all rows), plus the indices each version names.
 */
public final class ReadBack {
  private ReadBack() {}

  /** Snapshot of everything the SDK lists for the table at {@code table}. */
  public static TableSnapshot snapshot(Path table) {
    return snapshot(table.toAbsolutePath().normalize().toString(), Map.of());
  }

  /** The same for a table on an object store, opened with the SDK's {@code storageOptions}. */
  public static TableSnapshot snapshot(String uri, Map<String, String> storageOptions) {
    Reader reader = new Reader(uri, storageOptions);
    SortedMap<String, TableContent> entries = new TreeMap<>();
    List<Long> mainVersions;
    List<Tag> tags;
    List<Branch> branches;
    try (OpenedTable main = OpenedTable.latest(uri, Optional.empty(), storageOptions)) {
      mainVersions = versionIds(main.dataset());
      tags = main.dataset().tags().list();
      branches = main.dataset().branches().list();
    }
    for (long v : mainVersions) {
      entries.put("main/v" + v, reader.read(Ref.ofMain(v)));
    }
    for (Tag tag : tags) {
      entries.put("tag/" + tag.getName(), reader.read(Ref.ofTag(tag.getName())));
    }
    for (Branch branch : branches) {
      for (long v : reader.branchVersions(branch.getName())) {
        entries.put("branch/" + branch.getName() + "/v" + v, reader.read(Ref.ofBranch(branch.getName(), v)));
      }
    }
    return new TableSnapshot(entries);
  }

  /** Empty when {@code ref} reads in full; otherwise the SDK's error text. */
  public static Optional<String> failureReading(Path table, Ref ref) {
    TableContent content = read(table.toAbsolutePath().normalize().toString(), ref);
    return content instanceof TableContent.Unreadable u ? Optional.of(u.reason()) : Optional.empty();
  }

  /** Content of one version; unreadable versions are a value, not an exception. */
  public static TableContent read(Path table, Ref ref) {
    return read(table.toAbsolutePath().normalize().toString(), ref);
  }

  private static TableContent read(String uri, Ref ref) {
    return new Reader(uri, Map.of()).read(ref);
  }

  /** Opens versions of one table with the same storage options. */
  private record Reader(String uri, Map<String, String> storageOptions) {
    TableContent read(Ref ref) {
      try (OpenedTable opened = OpenedTable.at(uri, ref, storageOptions)) {
        Dataset dataset = opened.dataset();
        TableContent.Readable content = scanAll(dataset);
        touchIndices(dataset);
        return content;
      } catch (RuntimeException | IOException e) {
        return new TableContent.Unreadable(e.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }

    List<Long> branchVersions(String branch) {
      try (OpenedTable opened = OpenedTable.at(uri, Ref.ofBranch(branch), storageOptions)) {
        return versionIds(opened.dataset());
      }
    }
  }

  /**
   * Full scan through the SDK's SQL engine. (The SDK's LanceScanner implements an interface of
   * arrow-dataset, which the build excludes: its 78 MB of native code is not needed otherwise.)
   */
  private static TableContent.Readable scanAll(Dataset dataset) throws IOException {
    long rows = 0;
    long checksum = 0;
    try (ArrowReader reader =
        dataset.sql("SELECT * FROM fixture").tableName("fixture").intoBatchRecords()) {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        for (int row = 0; row < batch.getRowCount(); row++) {
          checksum += rowHash(batch, row);
        }
        rows += batch.getRowCount();
      }
    }
    return new TableContent.Readable(rows, checksum);
  }

  /** Loads each index's statistics, which opens its files: a removed index file fails here. */
  private static void touchIndices(Dataset dataset) {
    for (String index : dataset.listIndexes()) {
      dataset.getIndexStatistics(index);
    }
  }

  private static long rowHash(VectorSchemaRoot batch, int row) {
    StringBuilder canonical = new StringBuilder();
    for (FieldVector column : batch.getFieldVectors()) {
      canonical.append(column.getName()).append('=').append(column.getObject(row)).append('\u0001');
    }
    byte[] digest = sha256(canonical.toString().getBytes(StandardCharsets.UTF_8));
    long hash = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      hash = (hash << 8) | (digest[i] & 0xff);
    }
    return hash;
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static List<Long> versionIds(Dataset dataset) {
    return dataset.listVersions().stream().map(Version::getId).sorted().toList();
  }
}
