package dev.lancemaintenance.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The one schema every fixture table has, and rows derived only from their id and a revision, so
 * two tables written by the same verbs hold the same content. {@code vec} has width 4 so a vector
 * index can be trained on a few hundred rows.
 */
public final class FixtureRows {
  public static final String ID = "id";
  public static final String NAME = "name";
  public static final String VALUE = "value";
  public static final String VEC = "vec";
  public static final int VEC_WIDTH = 4;

  public static final Schema SCHEMA =
      new Schema(
          List.of(
              new Field(ID, FieldType.notNullable(new ArrowType.Int(64, true)), null),
              new Field(NAME, FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
              new Field(
                  VALUE,
                  FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                  null),
              new Field(
                  VEC,
                  FieldType.nullable(new ArrowType.FixedSizeList(VEC_WIDTH)),
                  List.of(
                      new Field(
                          "item",
                          FieldType.nullable(
                              new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
                          null)))));

  private FixtureRows() {}

  /**
   * Rows {@code firstId .. firstId + count - 1} at {@code revision} (0 for freshly inserted rows,
   * higher after an update), as an Arrow IPC stream the SDK can consume.
   */
  public static ArrowReader reader(
      BufferAllocator allocator, long firstId, int count, long revision) {
    try (VectorSchemaRoot root = batch(allocator, firstId, count, revision)) {
      return streamOf(root, allocator);
    }
  }

  /** A filled batch as an Arrow IPC stream the SDK can consume (the batch may be closed then). */
  static ArrowReader streamOf(VectorSchemaRoot root, BufferAllocator allocator) {
    try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
        writer.start();
        writer.writeBatch();
        writer.end();
      }
      return new ArrowStreamReader(new ByteArrayInputStream(out.toByteArray()), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialise the rows of " + root.getSchema(), e);
    }
  }

  /** The same rows as one in-memory batch; the caller closes it. */
  public static VectorSchemaRoot batch(
      BufferAllocator allocator, long firstId, int count, long revision) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    fill(root, firstId, count, revision);
    return root;
  }

  static String name(long id, long revision) {
    return revision == 0 ? "row-" + id : "row-" + id + "-r" + revision;
  }

  static double value(long id, long revision) {
    return id * 0.5 + revision;
  }

  static float vecComponent(long id, long revision, int component) {
    // Spread rows over a few clusters so IVF training has something to separate.
    return switch (component) {
      case 0 -> id % 7;
      case 1 -> id % 11;
      case 2 -> id % 13;
      default -> revision;
    };
  }

  private static void fill(VectorSchemaRoot root, long firstId, int count, long revision) {
    BigIntVector ids = (BigIntVector) root.getVector(ID);
    VarCharVector names = (VarCharVector) root.getVector(NAME);
    Float8Vector values = (Float8Vector) root.getVector(VALUE);
    FixedSizeListVector vecs = (FixedSizeListVector) root.getVector(VEC);
    Float4Vector components = (Float4Vector) vecs.getDataVector();
    root.allocateNew();
    for (int row = 0; row < count; row++) {
      long id = firstId + row;
      ids.setSafe(row, id);
      names.setSafe(row, name(id, revision).getBytes(StandardCharsets.UTF_8));
      values.setSafe(row, value(id, revision));
      vecs.setNotNull(row);
      for (int c = 0; c < VEC_WIDTH; c++) {
        components.setSafe(row * VEC_WIDTH + c, vecComponent(id, revision, c));
      }
    }
    root.setRowCount(count);
  }
}
