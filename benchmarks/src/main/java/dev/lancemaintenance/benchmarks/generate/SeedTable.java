package dev.lancemaintenance.benchmarks.generate;

import dev.lancemaintenance.proto.TableProtos;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.WriteParams;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;

/**
 * A tiny table written by the official SDK, the source of everything the generator does not invent:
 * the schema bytes, writer version, data format and config of a real manifest, a data-file entry,
 * a deletion file and an index directory. Generated tables link or copy these files and describe
 * them with manifests of our own, so the SDK reads every generated version as one of its own.
 *
 * <p>History of the seed: v1 creates {@link #ROWS_PER_FRAGMENT} rows, v2 builds a BTREE index on
 * {@code id}, v3 deletes the first row (a deletion file on fragment 0).
 */
public final class SeedTable {
  /** Rows of every appended fragment: two, so a deletion file can delete one and keep the fragment. */
  public static final int ROWS_PER_FRAGMENT = 2;

  static final Schema SCHEMA =
      new Schema(
          List.of(
              new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
              new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));

  private final Path root;
  private final TableProtos.Manifest manifest;
  private final TableProtos.IndexMetadata index;
  /** Data files of other row counts, written on demand by {@link #dataFileWithRows}. */
  private final Map<Integer, SeedFile> dataFilesByRows = new HashMap<>();

  private SeedTable(Path root, TableProtos.Manifest manifest, TableProtos.IndexMetadata index) {
    this.root = root;
    this.manifest = manifest;
    this.index = index;
  }

  /** Writes the seed table at {@code root} (which must not exist) with the SDK and decodes it. */
  public static SeedTable write(Path root) {
    String uri = root.toAbsolutePath().normalize().toString();
    try (BufferAllocator allocator = new RootAllocator()) {
      create(allocator, uri);
      try (Dataset dataset = Dataset.open(uri, allocator)) {
        IndexParams params =
            IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create("btree")).build();
        dataset.createIndex(List.of("id"), IndexType.BTREE, Optional.empty(), params, true);
      }
      try (Dataset dataset = Dataset.open(uri, allocator)) {
        dataset.delete("id = 0");
      }
    }
    ManifestBytes latest = ManifestBytes.readLatest(root);
    if (latest.manifest().getFragmentsCount() != 1 || !latest.manifest().getFragments(0).hasDeletionFile()) {
      throw new IllegalStateException("seed table " + root + " does not have one fragment with a deletion file");
    }
    if (latest.indexSection().getIndicesCount() != 1) {
      throw new IllegalStateException("seed table " + root + " does not have exactly one index");
    }
    return new SeedTable(root, latest.manifest(), latest.indexSection().getIndices(0));
  }

  /** The seed's latest manifest: schema (as unknown field 1), writer, data format and config. */
  TableProtos.Manifest manifest() {
    return manifest;
  }

  /** The seed's one fragment: its file entry (fields, format version) and deletion file. */
  TableProtos.DataFragment fragment() {
    return manifest.getFragments(0);
  }

  /** The seed's index entry, index details included (kept as unknown fields). */
  TableProtos.IndexMetadata index() {
    return index;
  }

  /** The seed's data file holding {@link #ROWS_PER_FRAGMENT} rows. */
  SeedFile dataFile() {
    return SeedFile.of(root.resolve("data").resolve(fragment().getFiles(0).getPath()));
  }

  /** The seed's deletion file: deletes row offset 0 of any two-row fragment of this schema. */
  SeedFile deletionFile() {
    TableProtos.DeletionFile deletion = fragment().getDeletionFile();
    String name = fragment().getId() + "-" + deletion.getReadVersion() + "-" + Long.toUnsignedString(deletion.getId()) + ".arrow";
    return SeedFile.of(root.resolve("_deletions").resolve(name));
  }

  /** Every file of the seed's index directory, by name. */
  List<SeedFile> indexFiles() {
    Path dir = root.resolve("_indices").resolve(IndexIds.toString(index.getUuid()));
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().map(SeedFile::of).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the seed index " + dir, e);
    }
  }

  /**
   * A data file of this schema with exactly {@code rows} rows (the output of a compaction), written
   * by the SDK into the seed's data directory without committing it.
   */
  SeedFile dataFileWithRows(int rows) {
    if (rows == ROWS_PER_FRAGMENT) {
      return dataFile();
    }
    return dataFilesByRows.computeIfAbsent(rows, this::writeDataFile);
  }

  private SeedFile writeDataFile(int rows) {
    String uri = root.toAbsolutePath().normalize().toString();
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot batch = rows(allocator, 0, rows)) {
      List<FragmentMetadata> written = Fragment.create(uri, allocator, batch, new WriteParams.Builder().build());
      if (written.size() != 1 || written.get(0).getFiles().size() != 1) {
        throw new IllegalStateException("expected one data file for " + rows + " rows, got " + written);
      }
      return SeedFile.of(root.resolve("data").resolve(written.get(0).getFiles().get(0).getPath()));
    }
  }

  private static void create(BufferAllocator allocator, String uri) {
    WriteParams params = new WriteParams.Builder().withMode(WriteParams.WriteMode.CREATE).build();
    byte[] ipc;
    try (VectorSchemaRoot batch = rows(allocator, 0, ROWS_PER_FRAGMENT);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArrowStreamWriter writer = new ArrowStreamWriter(batch, null, out)) {
      writer.start();
      writer.writeBatch();
      writer.end();
      ipc = out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // The exported stream owns the reader and closes it when the SDK releases the stream.
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator), stream);
      Dataset.create(allocator, stream, uri, params).close();
    }
  }

  static VectorSchemaRoot rows(BufferAllocator allocator, long firstId, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    BigIntVector ids = (BigIntVector) root.getVector("id");
    VarCharVector names = (VarCharVector) root.getVector("name");
    ids.allocateNew(count);
    names.allocateNew(count);
    for (int i = 0; i < count; i++) {
      ids.set(i, firstId + i);
      names.setSafe(i, ("row-" + (firstId + i)).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(count);
    return root;
  }
}
