package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.FileEntry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.GZIPInputStream;

/**
 * The rows of one gzipped CSV data file of an S3 Inventory report that lie under one table, as
 * table-relative {@link FileEntry}s, read as a stream (a data file can hold millions of rows).
 *
 * <p>AWS quotes every field and URL-encodes the key. With versioning in the report, only the
 * latest version of a key counts, and a delete marker means the key is gone.
 */
public final class InventoryRows implements Iterator<FileEntry>, AutoCloseable {
  private final String dataFile;
  private final BufferedReader reader;
  private final String bucket;
  private final String tablePrefix;
  private final int bucketColumn;
  private final int keyColumn;
  private final int sizeColumn;
  private final int modifiedColumn;
  private final int latestColumn;
  private final int deleteMarkerColumn;
  private FileEntry next;
  private long line;

  /**
   * @param tableKey the table's key in the bucket, without slashes at either end
   *     ({@code warehouse/t.lance})
   */
  public InventoryRows(InventoryManifest manifest, String dataFile, InputStream gzipped, String bucket, String tableKey) {
    this.dataFile = dataFile;
    this.bucket = bucket;
    this.tablePrefix = tableKey.isEmpty() ? "" : tableKey + "/";
    List<String> columns = manifest.columns();
    this.bucketColumn = required(columns, "Bucket");
    this.keyColumn = required(columns, "Key");
    this.sizeColumn = required(columns, "Size");
    this.modifiedColumn = required(columns, "LastModifiedDate");
    this.latestColumn = columns.indexOf("IsLatest");
    this.deleteMarkerColumn = columns.indexOf("IsDeleteMarker");
    try {
      this.reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(gzipped), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new InventoryException("S3 Inventory data file " + dataFile + " is not gzip: " + e.getMessage(), e);
    }
  }

  private int required(List<String> columns, String name) {
    int index = columns.indexOf(name);
    if (index < 0) {
      throw new InventoryException("S3 Inventory data file " + dataFile + ": the report has no " + name
          + " column (fileSchema: " + String.join(", ", columns) + "); add it to the inventory configuration");
    }
    return index;
  }

  @Override
  public boolean hasNext() {
    while (next == null) {
      String row;
      try {
        row = reader.readLine();
      } catch (IOException e) {
        throw new UncheckedIOException("S3 Inventory data file " + dataFile + ", line " + (line + 1), e);
      }
      if (row == null) {
        return false;
      }
      line++;
      next = entryOf(row);
    }
    return true;
  }

  @Override
  public FileEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    FileEntry entry = next;
    next = null;
    return entry;
  }

  /** The row as a table file, or null when it is another table's, not the latest, or a delete marker. */
  private FileEntry entryOf(String row) {
    if (row.isEmpty()) {
      return null;
    }
    List<String> fields = fields(row);
    if (fields.size() <= Math.max(Math.max(keyColumn, sizeColumn), Math.max(bucketColumn, modifiedColumn))) {
      throw malformed("has " + fields.size() + " fields");
    }
    if (!fields.get(bucketColumn).equals(bucket)
        || latestColumn >= 0 && !fields.get(latestColumn).equalsIgnoreCase("true")
        || deleteMarkerColumn >= 0 && fields.get(deleteMarkerColumn).equalsIgnoreCase("true")) {
      return null;
    }
    String key = URLDecoder.decode(fields.get(keyColumn), StandardCharsets.UTF_8);
    if (!key.startsWith(tablePrefix) || key.endsWith("/")) {
      return null;
    }
    try {
      return new FileEntry(key.substring(tablePrefix.length()), Long.parseLong(fields.get(sizeColumn)),
          Instant.parse(fields.get(modifiedColumn)).toEpochMilli());
    } catch (NumberFormatException | DateTimeParseException e) {
      throw malformed("has a size or time that does not parse: " + e.getMessage());
    }
  }

  private InventoryException malformed(String problem) {
    return new InventoryException("S3 Inventory data file " + dataFile + ", line " + line + " " + problem
        + ": not a report of the manifest's fileSchema");
  }

  /** The fields of one CSV row: quoted (a doubled quote inside stands for one) or bare. */
  private List<String> fields(String row) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < row.length(); i++) {
      char c = row.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < row.length() && row.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    if (quoted) {
      throw malformed("ends inside a quoted field");
    }
    fields.add(field.toString());
    return fields;
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
