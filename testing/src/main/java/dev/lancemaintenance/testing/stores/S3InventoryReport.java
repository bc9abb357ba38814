package dev.lancemaintenance.testing.stores;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;

/**
 * Writes an S3 Inventory report of a bucket on the test server in the layout and format AWS uses
 * for CSV reports: {@code <prefix>/<source>/<config>/data/<uuid>.csv.gz} with every field quoted and
 * the key URL-encoded, and {@code <prefix>/<source>/<config>/<YYYY-MM-DDTHH-MMZ>/manifest.json}
 * naming the data files. The rows are the server's own listing (sizes and modification times as
 * the server stored them), in the versioned schema (IsLatest, IsDeleteMarker) when asked.
 */
public final class S3InventoryReport {
  private static final String CONFIG = "daily";
  private static final DateTimeFormatter FOLDER = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm'Z'").withZone(ZoneOffset.UTC);

  private final List<String> extraRows = new ArrayList<>();
  private final List<String> leftOut = new ArrayList<>();
  private int rowsPerFile = 50;
  private Instant takenAt;

  /** A raw row to add (another version of a key, a delete marker), in the versioned schema. */
  public S3InventoryReport withRow(String... fields) {
    List<String> quoted = new ArrayList<>();
    for (String field : fields) {
      quoted.add('"' + field.replace("\"", "\"\"") + '"');
    }
    extraRows.add(String.join(",", quoted));
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

  /** Writes the report of {@code sourceBucket} into {@code destinationBucket}; returns the manifest's s3a URI. */
  public String write(S3ProxyServer s3, String sourceBucket, String destinationBucket, String prefix) {
    BlobStore store = s3.blobStore();
    Instant now = takenAt == null ? Instant.now() : takenAt;
    List<String> rows = new ArrayList<>();
    for (StorageMetadata object : list(store, sourceBucket)) {
      if (leftOut.contains(object.getName())) {
        continue;
      }
      rows.add(String.join(",",
          quote(sourceBucket),
          quote(URLEncoder.encode(object.getName(), StandardCharsets.UTF_8)),
          quote(""), quote("true"), quote("false"),
          quote(Long.toString(object.getSize())),
          quote(object.getLastModified().toInstant().toString()),
          quote("etag"), quote("STANDARD")));
    }
    rows.addAll(extraRows);
    String base = prefix + "/" + sourceBucket + "/" + CONFIG;
    List<String> files = new ArrayList<>();
    StringBuilder fileEntries = new StringBuilder();
    for (int from = 0; from < rows.size(); from += rowsPerFile) {
      String key = base + "/data/" + UUID.randomUUID() + ".csv.gz";
      byte[] gz = gzip(rows.subList(from, Math.min(rows.size(), from + rowsPerFile)));
      put(store, destinationBucket, key, gz);
      files.add(key);
      fileEntries.append(fileEntries.length() == 0 ? "" : ",")
          .append("{\"key\":\"").append(key).append("\",\"size\":").append(gz.length)
          .append(",\"MD5checksum\":\"00000000000000000000000000000000\"}");
    }
    String manifest = "{\"sourceBucket\":\"" + sourceBucket + "\","
        + "\"destinationBucket\":\"arn:aws:s3:::" + destinationBucket + "\","
        + "\"version\":\"2016-11-30\","
        + "\"creationTimestamp\":\"" + now.toEpochMilli() + "\","
        + "\"fileFormat\":\"CSV\","
        + "\"fileSchema\":\"Bucket, Key, VersionId, IsLatest, IsDeleteMarker, Size, LastModifiedDate, ETag, StorageClass\","
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

  private static String quote(String field) {
    return '"' + field + '"';
  }

  private static byte[] gzip(List<String> rows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Writer out = new OutputStreamWriter(new GZIPOutputStream(bytes), StandardCharsets.UTF_8)) {
      for (String row : rows) {
        out.write(row);
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
