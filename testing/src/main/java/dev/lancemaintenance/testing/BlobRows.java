package dev.lancemaintenance.testing;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.WriteParams;

/**
 * Rows of a table with a Lance blob v2 column, written by the SDK: {@code id} and {@code payload},
 * a {@code Struct<data: LargeBinary, uri: Utf8>} tagged {@code ARROW:extension:name =
 * lance.blob.v2}, in file format 2.2. Lance keeps payloads up to the inline threshold inside the
 * data file and writes each payload above the dedicated threshold into a sidecar {@code
 * data/<data-file-stem>/<n>.blob}; both thresholds are lowered (field metadata) so that small rows
 * make sidecars. Payload bytes derive from the row's id alone.
 */
public final class BlobRows {
  public static final String ID = "id";
  public static final String PAYLOAD = "payload";
  /** Payloads larger than this go to a sidecar {@code .blob} file of their data file. */
  public static final int DEDICATED_THRESHOLD = 32 * 1024;
  private static final int INLINE_THRESHOLD = 1024;

  static final Schema SCHEMA = new Schema(List.of(
      new Field(ID, FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field(
          PAYLOAD,
          new FieldType(true, ArrowType.Struct.INSTANCE, null, Map.of(
              "ARROW:extension:name", "lance.blob.v2",
              "lance-encoding:blob-inline-size-threshold", Integer.toString(INLINE_THRESHOLD),
              "lance-encoding:blob-dedicated-size-threshold", Integer.toString(DEDICATED_THRESHOLD))),
          List.of(
              new Field("data", FieldType.nullable(ArrowType.LargeBinary.INSTANCE), null),
              new Field("uri", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)))));

  private BlobRows() {}

  /**
   * Appends rows {@code firstId ..}, one payload each of the given sizes, as one new version of
   * {@code table} (creating it); returns that version.
   */
  public static long append(LanceTableFixture table, long firstId, int... payloadSizes) {
    WriteParams params = new WriteParams.Builder()
        .withMode(table.latestVersion() == 0 ? WriteParams.WriteMode.CREATE : WriteParams.WriteMode.APPEND)
        .withDataStorageVersion("2.2")
        .build();
    try (BufferAllocator allocator = new RootAllocator();
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      // The exported stream owns the reader and closes it when the SDK releases the stream.
      Data.exportArrayStream(allocator, reader(allocator, firstId, payloadSizes), stream);
      Dataset.create(allocator, stream, table.uri(), params).close();
    }
    return table.latestVersion();
  }

  static byte[] payload(long id, int size) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, (byte) (id % 251));
    return bytes;
  }

  private static ArrowReader reader(BufferAllocator allocator, long firstId, int[] sizes) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      BigIntVector ids = (BigIntVector) root.getVector(ID);
      StructVector payloads = (StructVector) root.getVector(PAYLOAD);
      LargeVarBinaryVector data = (LargeVarBinaryVector) payloads.getChild("data");
      root.allocateNew();
      for (int row = 0; row < sizes.length; row++) {
        long id = firstId + row;
        ids.setSafe(row, id);
        payloads.setIndexDefined(row);
        data.setSafe(row, payload(id, sizes[row]));
        payloads.getChild("uri").setNull(row);
      }
      root.setRowCount(sizes.length);
      return FixtureRows.streamOf(root, allocator);
    }
  }
}
