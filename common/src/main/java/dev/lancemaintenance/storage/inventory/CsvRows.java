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
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The rows of one gzipped CSV data file of an S3 Inventory report, line by line. AWS quotes every
 * field, names the columns in the manifest's {@code fileSchema} ({@code Bucket, Key, Size,
 * LastModifiedDate, ...}) and URL-encodes the key.
 */
final class CsvRows extends LookaheadRows {
  private final String dataFile;
  private final BufferedReader reader;
  private final TableRows table;
  private final int bucketColumn;
  private final int keyColumn;
  private final int sizeColumn;
  private final int modifiedColumn;
  private final int latestColumn;
  private final int deleteMarkerColumn;
  private final int lastRequiredColumn;
  private long line;

  CsvRows(InventoryManifest manifest, String dataFile, InputStream gzipped, TableRows table) {
    this.dataFile = dataFile;
    this.table = table;
    List<String> columns = manifest.columns();
    this.bucketColumn = required(columns, "Bucket");
    this.keyColumn = required(columns, "Key");
    this.sizeColumn = required(columns, "Size");
    this.modifiedColumn = required(columns, "LastModifiedDate");
    this.latestColumn = columns.indexOf("IsLatest");
    this.deleteMarkerColumn = columns.indexOf("IsDeleteMarker");
    this.lastRequiredColumn = Math.max(Math.max(keyColumn, sizeColumn), Math.max(bucketColumn, modifiedColumn));
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
  protected FileEntry readNextFile() {
    while (true) {
      String row;
      try {
        row = reader.readLine();
      } catch (IOException e) {
        throw new UncheckedIOException("S3 Inventory data file " + dataFile + ", line " + (line + 1), e);
      }
      if (row == null) {
        return null;
      }
      line++;
      FileEntry entry = entryOf(row);
      if (entry != null) {
        return entry;
      }
    }
  }

  /** The row as a table file, or null when it is none ({@link TableRows}). */
  private FileEntry entryOf(String row) {
    if (row.isEmpty()) {
      return null;
    }
    List<String> fields = fields(row);
    if (fields.size() <= lastRequiredColumn) {
      throw malformed("has " + fields.size() + " fields");
    }
    String key;
    try {
      key = URLDecoder.decode(fields.get(keyColumn), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw malformed("has a key that is not URL-encoded: " + e.getMessage());
    }
    String path = table.pathOf(fields.get(bucketColumn), key,
        latestColumn < 0 ? Boolean.TRUE : flag(fields.get(latestColumn)),
        deleteMarkerColumn < 0 ? Boolean.FALSE : flag(fields.get(deleteMarkerColumn)));
    if (path == null) {
      return null;
    }
    try {
      return new FileEntry(path, Long.parseLong(fields.get(sizeColumn)),
          Instant.parse(fields.get(modifiedColumn)).toEpochMilli());
    } catch (NumberFormatException | DateTimeParseException e) {
      throw malformed("has a size or time that does not parse: " + e.getMessage());
    }
  }

  /** A CSV boolean: {@code true}/{@code false} in any case, null for anything else (an empty field). */
  private static Boolean flag(String field) {
    if (field.equalsIgnoreCase("true")) {
      return Boolean.TRUE;
    }
    return field.equalsIgnoreCase("false") ? Boolean.FALSE : null;
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
