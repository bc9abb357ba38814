package dev.lancemaintenance.examples;

import dev.lancemaintenance.storage.TableLease;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
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
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.WriteParams;

/**
 * Writes the demo table with the official Lance writer, the way an ingest job would: many small
 * appends, a delete and an overwrite, so that old versions and the files only they reference pile
 * up for a cleanup to remove. {@link #prepare} makes its directory ready without ever deleting what a
 * demo did not write; the demo command and the examples share both.
 */
public final class DemoTable {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("event", ArrowType.Utf8.INSTANCE)));

  /** Written into every table the demo creates: the proof that a rerun may replace it. */
  public static final String MARKER = ".lance-maintenance-demo";
  /**
   * What a demo table holds: the marker, the directories the Lance writer makes, and the lease
   * directory its own cleanup leaves.
   */
  private static final Set<String> DEMO_ENTRIES =
      Set.of(MARKER, "_versions", "_transactions", "data", "_deletions", "_indices", "_refs", TableLease.DIR);

  private DemoTable() {}

  /** Writes {@code appends} appends of {@code rowsPerAppend} rows, a delete and an overwrite at {@code root}. */
  public static long write(Path root, int appends, int rowsPerAppend) {
    String uri = root.toAbsolutePath().toString();
    long nextId = 0;
    for (int i = 0; i < appends; i++) {
      write(uri, i == 0 ? WriteParams.WriteMode.CREATE : WriteParams.WriteMode.APPEND, nextId, rowsPerAppend);
      nextId += rowsPerAppend;
    }
    try (Dataset dataset = Dataset.open(uri)) {
      dataset.delete("id % 10 = 3");
    }
    write(uri, WriteParams.WriteMode.OVERWRITE, nextId, rowsPerAppend * 4);
    try (Dataset dataset = Dataset.open(uri)) {
      return dataset.version();
    }
  }

  private static void write(String uri, WriteParams.WriteMode mode, long firstId, int rows) {
    WriteParams params = new WriteParams.Builder().withMode(mode).build();
    try (BufferAllocator allocator = new RootAllocator();
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(
          allocator, new ArrowStreamReader(new ByteArrayInputStream(batch(allocator, firstId, rows)), allocator), stream);
      Dataset.create(allocator, stream, uri, params).close();
    }
  }

  private static byte[] batch(BufferAllocator allocator, long firstId, int rows) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      BigIntVector ids = (BigIntVector) root.getVector("id");
      VarCharVector events = (VarCharVector) root.getVector("event");
      root.allocateNew();
      for (int row = 0; row < rows; row++) {
        ids.setSafe(row, firstId + row);
        events.setSafe(row, ("event-" + (firstId + row)).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(rows);
      try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
        writer.start();
        writer.writeBatch();
        writer.end();
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot build demo rows", e);
    }
  }

  /**
   * Makes {@code root} ready for a fresh demo table: creates it when absent; an empty directory is
   * used as it is; an earlier demo's table (its marker, and nothing a demo does not write) is
   * replaced. Anything else is refused: the demo never deletes what it did not create.
   */
  public static void prepare(Path root) {
    try {
      if (Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
          throw refused(root, "it is not a directory");
        }
        List<String> entries;
        try (Stream<Path> children = Files.list(root)) {
          entries = children.map(child -> child.getFileName().toString()).sorted().toList();
        }
        if (!entries.isEmpty()) {
          if (!Files.isRegularFile(root.resolve(MARKER), LinkOption.NOFOLLOW_LINKS)) {
            throw refused(root, "it is not empty and no demo wrote it");
          }
          List<String> foreign = entries.stream().filter(entry -> !DEMO_ENTRIES.contains(entry)).toList();
          if (!foreign.isEmpty()) {
            throw refused(root, "an earlier demo wrote it, but it now also holds " + foreign);
          }
          deleteRecursively(root);
        }
      }
      Files.createDirectories(root);
      Files.writeString(root.resolve(MARKER), "written by lance-maintenance demo; a rerun replaces this table\n");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot prepare the demo table " + root, e);
    }
  }

  private static IllegalStateException refused(Path root, String why) {
    return new IllegalStateException(
        "demo: refusing to write into " + root + ": " + why + ". Give a new path (lance-maintenance demo <new-path>);"
            + " the demo never deletes what it did not create");
  }

  /** Deletes an earlier demo's table; links are deleted as links, never followed. */
  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
