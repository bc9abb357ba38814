package dev.lancemaintenance.examples;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
 * up for a cleanup to remove.
 */
public final class DemoTable {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("event", ArrowType.Utf8.INSTANCE)));

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

}
