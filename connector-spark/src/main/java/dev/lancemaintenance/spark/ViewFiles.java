package dev.lancemaintenance.spark;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.stage.ListManagedFiles;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Iterator;
import java.util.Optional;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;

/**
 * Stage {@code list} from a view of file paths ({@code file_list_view}, as Iceberg's): the rows of
 * one partition of the view ({@code path, size, last_modified}) that lie in a managed directory of
 * the dataset being cleaned, as table-relative {@link FileEntry}s, exactly as an inventory's data
 * file is read ({@link ReferenceKeys#isInDataset}). Runs on the executors; a row of another
 * table is skipped, a row that cannot be read fails the run naming the view.
 */
final class ViewFiles implements FlatMapFunction<Iterator<Row>, FileEntry> {
  private static final long serialVersionUID = 1L;

  private final String view;
  private final TableLocation table;
  private final DatasetRef dataset;

  ViewFiles(String view, TableLocation table, DatasetRef dataset) {
    this.view = view;
    this.table = table;
    this.dataset = dataset;
  }

  @Override
  public Iterator<FileEntry> call(Iterator<Row> rows) {
    return ListManagedFiles.entries(rows, this::entryOf);
  }

  /** The row as a file of the dataset's managed directories, or empty when it lies elsewhere. */
  Optional<FileEntry> entryOf(Row row) {
    if (row.isNullAt(0) || row.isNullAt(1) || row.isNullAt(2)) {
      throw new MaintenanceException("file_list_view " + view + " has a row with a NULL path, size or last_modified: " + row);
    }
    String path = row.getString(0);
    if (!path.contains(":") && !path.startsWith("/")) {
      throw new MaintenanceException("file_list_view " + view + " has a relative path (" + path
          + "); give absolute paths or URIs, as the table's: " + table);
    }
    Optional<TableLocation.PathInTable> inTable = table.locate(path);
    if (inTable.isEmpty() || !inTable.get().certain()) {
      return Optional.empty();
    }
    String relative = inTable.get().path();
    if (!ReferenceKeys.isInDataset(dataset, relative)) {
      return Optional.empty();
    }
    return Optional.of(new FileEntry(relative, ((Number) row.get(1)).longValue(), millisOf(row.get(2))));
  }

  private long millisOf(Object value) {
    if (value instanceof Timestamp timestamp) {
      return timestamp.getTime();
    }
    if (value instanceof Instant instant) {
      return instant.toEpochMilli();
    }
    throw new MaintenanceException("file_list_view " + view + ": last_modified must be a TIMESTAMP, not " + value.getClass().getSimpleName());
  }
}
