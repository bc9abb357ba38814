package dev.lancemaintenance.testing.stores;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URLEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;

/**
 * Writes an S3 Inventory report of a bucket on the test server in the layout and formats AWS uses:
 * {@code <prefix>/<source>/<config>/data/<uuid>.csv.gz} (every field quoted, the key URL-encoded)
 * or, {@link #inParquet()}, {@code .../data/<uuid>.parquet} (AWS's snake-case columns, written by
 * Parquet's own writer, Snappy-compressed), and {@code
 * <prefix>/<source>/<config>/<YYYY-MM-DDTHH-MMZ>/manifest.json} naming the data files, with the
 * {@code fileSchema} of the format. The rows are the server's own listing (sizes and modification
 * times as the server stored them), in the versioned schema (IsLatest, IsDeleteMarker).
 */
public final class S3InventoryReport {
  private static final String CONFIG = "daily";
  private static final DateTimeFormatter FOLDER = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm'Z'").withZone(ZoneOffset.UTC);
  private static final String CSV_SCHEMA =
      "Bucket, Key, VersionId, IsLatest, IsDeleteMarker, Size, LastModifiedDate, ETag, StorageClass";
  /** The schema AWS writes in a Parquet report's manifest and data files, for these columns. */
  private static final String PARQUET_SCHEMA = "message s3.inventory {  required binary bucket (STRING);"
      + "  required binary key (STRING);  optional binary version_id (STRING);  optional boolean is_latest;"
      + "  optional boolean is_delete_marker;  optional int64 size;"
      + "  optional int64 last_modified_date (TIMESTAMP(MILLIS,true));  optional binary e_tag (STRING);"
      + "  optional binary storage_class (STRING);}";

  /** One row of the versioned schema; {@code size} null for a delete marker. */
  private record Row(String bucket, String key, String versionId, boolean isLatest, boolean isDeleteMarker,
      Long size, Instant lastModified) {}

  private final List<Row> extraRows = new ArrayList<>();
  private final List<String> leftOut = new ArrayList<>();
  private int rowsPerFile = 50;
  private Instant takenAt;
  private boolean parquet;

  /**
   * A raw row to add (another version of a key, a delete marker), in the versioned schema's order:
   * bucket, key, version id, is latest, is delete marker, size (empty for none), last modified.
   */
  public S3InventoryReport withRow(String... fields) {
    extraRows.add(new Row(fields[0], fields[1], fields[2], Boolean.parseBoolean(fields[3]), Boolean.parseBoolean(fields[4]),
        fields[5].isEmpty() ? null : Long.valueOf(fields[5]), Instant.parse(fields[6])));
    return this;
  }

  /** Leaves the object {@code key} out of the report, as a report that missed it (or a prefix filter) would. */
  public S3InventoryReport without(String key) {
    leftOut.add(key);
    return this;
  }

  /**
   * The report's {@code creationTimestamp}, instead of the moment it is written: a report that
   * claims to be older than some of the objects it lists.
   */
  public S3InventoryReport takenAt(Instant instant) {
    this.takenAt = instant;
    return this;
  }

  /** How many rows each data file holds: several files make the engines' units of work. */
  public S3InventoryReport rowsPerFile(int rows) {
    this.rowsPerFile = rows;
    return this;
  }

  /** A report in Parquet, as an inventory configured with the Parquet output format. */
  public S3InventoryReport inParquet() {
    this.parquet = true;
    return this;
  }

  /** Writes the report of {@code sourceBucket} into {@code destinationBucket}; returns the manifest's s3a URI. */
  public String write(S3ProxyServer s3, String sourceBucket, String destinationBucket, String prefix) {
    BlobStore store = s3.blobStore();
    Instant now = takenAt == null ? Instant.now() : takenAt;
    List<Row> rows = new ArrayList<>();
    for (StorageMetadata object : list(store, sourceBucket)) {
      if (!leftOut.contains(object.getName())) {
        rows.add(new Row(sourceBucket, object.getName(), "", true, false, object.getSize(),
            object.getLastModified().toInstant()));
      }
    }
    rows.addAll(extraRows);
    String base = prefix + "/" + sourceBucket + "/" + CONFIG;
    StringBuilder fileEntries = new StringBuilder();
    for (int from = 0; from < rows.size(); from += rowsPerFile) {
      List<Row> part = rows.subList(from, Math.min(rows.size(), from + rowsPerFile));
      String key = base + "/data/" + UUID.randomUUID() + (parquet ? ".parquet" : ".csv.gz");
      byte[] content = parquet ? parquet(part) : gzippedCsv(part);
      put(store, destinationBucket, key, content);
      fileEntries.append(fileEntries.length() == 0 ? "" : ",")
          .append("{\"key\":\"").append(key).append("\",\"size\":").append(content.length)
          .append(",\"MD5checksum\":\"00000000000000000000000000000000\"}");
    }
    String manifest = "{\"sourceBucket\":\"" + sourceBucket + "\","
        + "\"destinationBucket\":\"arn:aws:s3:::" + destinationBucket + "\","
        + "\"version\":\"2016-11-30\","
        + "\"creationTimestamp\":\"" + now.toEpochMilli() + "\","
        + "\"fileFormat\":\"" + (parquet ? "Parquet" : "CSV") + "\","
        + "\"fileSchema\":\"" + (parquet ? PARQUET_SCHEMA : CSV_SCHEMA) + "\","
        + "\"files\":[" + fileEntries + "]}";
    String manifestKey = base + "/" + FOLDER.format(now) + "/manifest.json";
    put(store, destinationBucket, manifestKey, manifest.getBytes(StandardCharsets.UTF_8));
    return S3ProxyServer.s3aUri(destinationBucket, manifestKey);
  }

  private static List<StorageMetadata> list(BlobStore store, String bucket) {
    List<StorageMetadata> objects = new ArrayList<>();
    String marker = null;
    do {
      ListContainerOptions options = ListContainerOptions.Builder.recursive();
      if (marker != null) {
        options.afterMarker(marker);
      }
      var page = store.list(bucket, options);
      page.forEach(objects::add);
      marker = page.getNextMarker();
    } while (marker != null);
    return objects;
  }

  private static void put(BlobStore store, String bucket, String key, byte[] content) {
    store.putBlob(bucket, store.blobBuilder(key).payload(content).contentLength(content.length).build());
  }

  private static byte[] gzippedCsv(List<Row> rows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Writer out = new OutputStreamWriter(new GZIPOutputStream(bytes), StandardCharsets.UTF_8)) {
      for (Row row : rows) {
        out.write(String.join(",", quote(row.bucket()), quote(URLEncoder.encode(row.key(), StandardCharsets.UTF_8)),
            quote(row.versionId()), quote(Boolean.toString(row.isLatest())), quote(Boolean.toString(row.isDeleteMarker())),
            quote(row.size() == null ? "" : row.size().toString()), quote(row.lastModified().toString()),
            quote("etag"), quote("STANDARD")));
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static String quote(String field) {
    return '"' + field.replace("\"", "\"\"") + '"';
  }

  /** The rows as a Parquet file in AWS's schema, written by Parquet's own writer. */
  private static byte[] parquet(List<Row> rows) {
    MessageType schema = MessageTypeParser.parseMessageType(PARQUET_SCHEMA);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try {
      Path file = Files.createTempFile("inventory", ".parquet");
      Files.delete(file);
      try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(file))
          .withType(schema)
          .withCompressionCodec(CompressionCodecName.SNAPPY)
          .build()) {
        for (Row row : rows) {
          Group group = groups.newGroup()
              .append("bucket", row.bucket()).append("key", row.key()).append("version_id", row.versionId())
              .append("is_latest", row.isLatest()).append("is_delete_marker", row.isDeleteMarker())
              .append("last_modified_date", row.lastModified().toEpochMilli())
              .append("e_tag", "etag").append("storage_class", "STANDARD");
          if (row.size() != null) {
            group.append("size", row.size());
          }
          writer.write(group);
        }
      }
      byte[] content = Files.readAllBytes(file);
      Files.delete(file);
      return content;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
