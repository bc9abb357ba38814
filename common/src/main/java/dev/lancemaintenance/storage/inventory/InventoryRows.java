package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.StorageInputStream;
import dev.lancemaintenance.storage.TableStorage;
import java.util.Iterator;

/**
 * The rows of one data file of an S3 Inventory report that are live files of one table ({@link
 * TableRows}), as table-relative {@link FileEntry}s, read as a stream: a data file can hold
 * millions of rows, and none is held longer than it takes to pass it on.
 */
public interface InventoryRows extends Iterator<FileEntry>, AutoCloseable {
  /** Releases the data file; rows not read by then are not read. */
  @Override
  void close();

  /**
   * Opens {@code dataFile} of the report {@code header} describes, in its format (gzipped CSV or
   * Parquet), through {@code reports}, for the table at {@code tableKey} of the report's bucket.
   */
  static InventoryRows open(InventoryManifest header, String dataFile, TableStorage reports, String tableKey) {
    TableRows table = new TableRows(header.sourceBucket(), tableKey);
    return switch (header.format()) {
      case CSV -> new CsvRows(header, dataFile, new StorageInputStream(reports, dataFile), table);
      case PARQUET -> new ParquetRows(dataFile, new StorageInputFile(reports, dataFile), table);
    };
  }
}
