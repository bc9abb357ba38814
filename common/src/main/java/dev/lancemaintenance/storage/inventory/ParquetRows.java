package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.FileEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * The rows of one Parquet data file of an S3 Inventory report, one row group in memory at a time
 * and only the columns a listing needs. AWS names the columns in snake case ({@code bucket, key,
 * version_id, is_latest, is_delete_marker, size, last_modified_date, ...}), keeps the key as it is
 * (no URL encoding, unlike CSV) and writes {@code last_modified_date} as an INT64 timestamp in
 * milliseconds; other timestamp units are read too.
 */
final class ParquetRows extends LookaheadRows {
  private static final String BUCKET = "bucket";
  private static final String KEY = "key";
  private static final String SIZE = "size";
  private static final String LAST_MODIFIED = "last_modified_date";
  private static final String IS_LATEST = "is_latest";
  private static final String IS_DELETE_MARKER = "is_delete_marker";

  private final String dataFile;
  private final TableRows table;
  private final ParquetFileReader reader;
  private final MessageType projection;
  private final MessageColumnIO columns;
  private final long unitsPerMilli;
  private RecordReader<Group> records;
  private long rowsLeftInGroup;
  private long row;

  ParquetRows(String dataFile, InputFile file, TableRows table) {
    this.dataFile = dataFile;
    this.table = table;
    try {
      this.reader = ParquetFileReader.open(file, ParquetReadOptions.builder().build());
    } catch (IOException | RuntimeException e) {
      throw new InventoryException("S3 Inventory data file " + dataFile + " is not a Parquet file: " + e.getMessage(), e);
    }
    try {
      MessageType schema = reader.getFileMetaData().getSchema();
      List<Type> fields = new ArrayList<>();
      fields.add(column(schema, BUCKET, PrimitiveTypeName.BINARY, true));
      fields.add(column(schema, KEY, PrimitiveTypeName.BINARY, true));
      fields.add(column(schema, SIZE, PrimitiveTypeName.INT64, true));
      Type lastModified = column(schema, LAST_MODIFIED, PrimitiveTypeName.INT64, true);
      fields.add(lastModified);
      for (String flag : List.of(IS_LATEST, IS_DELETE_MARKER)) {
        Type column = column(schema, flag, PrimitiveTypeName.BOOLEAN, false);
        if (column != null) {
          fields.add(column);
        }
      }
      this.unitsPerMilli = unitsPerMilli(lastModified.getLogicalTypeAnnotation());
      this.projection = new MessageType(schema.getName(), fields);
      this.columns = new ColumnIOFactory().getColumnIO(projection);
      reader.setRequestedSchema(projection);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The column {@code name} of the file's schema, checked for its type; null when optional and absent. */
  private Type column(MessageType schema, String name, PrimitiveTypeName type, boolean required) {
    if (!schema.containsField(name)) {
      if (!required) {
        return null;
      }
      throw new InventoryException("S3 Inventory data file " + dataFile + ": the report has no " + name
          + " column (schema: " + schema.getFields().stream().map(Type::getName).toList()
          + "); add it to the inventory configuration");
    }
    Type column = schema.getType(name);
    if (!column.isPrimitive() || column.asPrimitiveType().getPrimitiveTypeName() != type || column.isRepetition(Type.Repetition.REPEATED)) {
      throw new InventoryException("S3 Inventory data file " + dataFile + ": column " + name + " is " + column
          + ", not a single " + type + " as AWS writes it");
    }
    return column;
  }

  /** How many units of {@code last_modified_date} make a millisecond. */
  private long unitsPerMilli(LogicalTypeAnnotation annotation) {
    if (annotation instanceof TimestampLogicalTypeAnnotation timestamp) {
      return switch (timestamp.getUnit()) {
        case MILLIS -> 1L;
        case MICROS -> 1_000L;
        case NANOS -> 1_000_000L;
      };
    }
    throw new InventoryException("S3 Inventory data file " + dataFile + ": column " + LAST_MODIFIED
        + " is not a timestamp (" + annotation + ")");
  }

  @Override
  protected FileEntry readNextFile() {
    try {
      while (true) {
        if (rowsLeftInGroup == 0 && !nextRowGroup()) {
          return null;
        }
        Group group = records.read();
        rowsLeftInGroup--;
        row++;
        FileEntry entry = entryOf(group);
        if (entry != null) {
          return entry;
        }
      }
    } catch (InventoryException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new InventoryException("S3 Inventory data file " + dataFile + ", row " + row + " cannot be read: " + e.getMessage(), e);
    }
  }

  /** Reads the next row group's columns into memory, dropping the last one's; false after the last. */
  private boolean nextRowGroup() throws IOException {
    PageReadStore pages = reader.readNextRowGroup();
    if (pages == null) {
      return false;
    }
    rowsLeftInGroup = pages.getRowCount();
    records = columns.getRecordReader(pages, new GroupRecordConverter(projection));
    return true;
  }

  /** The row as a table file, or null when it is none ({@link TableRows}). */
  private FileEntry entryOf(Group group) {
    String path = table.pathOf(string(group, BUCKET), string(group, KEY),
        projection.containsField(IS_LATEST) ? flag(group, IS_LATEST) : Boolean.TRUE,
        projection.containsField(IS_DELETE_MARKER) ? flag(group, IS_DELETE_MARKER) : Boolean.FALSE);
    if (path == null) {
      return null;
    }
    if (!isSet(group, SIZE) || !isSet(group, LAST_MODIFIED)) {
      throw new InventoryException("S3 Inventory data file " + dataFile + ", row " + row + " (" + path
          + ") has no " + (isSet(group, SIZE) ? LAST_MODIFIED : SIZE) + ": not a listing of live objects");
    }
    long modifiedMillis = Math.floorDiv(group.getLong(LAST_MODIFIED, 0), unitsPerMilli);
    return new FileEntry(path, group.getLong(SIZE, 0), modifiedMillis);
  }

  private static boolean isSet(Group group, String field) {
    return group.getFieldRepetitionCount(field) > 0;
  }

  private static String string(Group group, String field) {
    return isSet(group, field) ? group.getString(field, 0) : null;
  }

  private static Boolean flag(Group group, String field) {
    return isSet(group, field) ? group.getBoolean(field, 0) : null;
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException e) {
      throw new InventoryException("S3 Inventory data file " + dataFile + " cannot be closed: " + e.getMessage(), e);
    }
  }
}
