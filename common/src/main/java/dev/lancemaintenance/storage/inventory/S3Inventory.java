package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.InputStream;
import java.net.URI;
import java.util.Iterator;
import java.util.List;

/**
 * An S3 Inventory report as the listing of one table: its data files are read one by one (engines
 * hand them to separate tasks), each as a stream of the table's files. The report's own bucket is
 * read through the same storage layer and settings as the table.
 *
 * <p>What a report is worth: it shows the files that existed when AWS took it ({@link
 * InventoryManifest#creationTime()}), some of which may be gone since. Files newer than the report
 * are not in it, so a cleanup that lists from it never sees them, let alone deletes them.
 */
public final class S3Inventory {
  private final String manifestUri;
  private final TableLocation reportBucket;
  private final InventoryManifest manifest;

  private S3Inventory(String manifestUri, TableLocation reportBucket, InventoryManifest manifest) {
    this.manifestUri = manifestUri;
    this.reportBucket = reportBucket;
    this.manifest = manifest;
  }

  /** Reads the report's {@code manifest.json}, e.g. {@code s3a://inventory/src/config/2026-11-30T01-00Z/manifest.json}. */
  public static S3Inventory open(String manifestUri, TableStorageFactory storage) {
    URI uri = URI.create(manifestUri);
    if (uri.getScheme() == null || uri.getAuthority() == null || uri.getPath() == null || uri.getPath().length() < 2) {
      throw new InventoryException("S3 Inventory manifest " + manifestUri + " is not a URI of the form s3a://bucket/key");
    }
    TableLocation bucket = TableLocation.of(uri.getScheme() + "://" + uri.getAuthority());
    try (TableStorage reports = storage.open(bucket)) {
      byte[] json = reports.readFully(uri.getPath().substring(1));
      return new S3Inventory(manifestUri, bucket, InventoryManifest.parse(manifestUri, json));
    }
  }

  public InventoryManifest manifest() {
    return manifest;
  }

  /** The report's data files: the unit of work of a listing from it. */
  public List<String> dataFiles() {
    return manifest.dataFiles();
  }

  /**
   * The table's files in one data file. The caller closes the returned rows, then the storage.
   *
   * @throws InventoryException when the report is of another bucket than the table's
   */
  public InventoryRows rows(TableStorage reports, String dataFile, TableLocation table) {
    String tableKey = keyInReport(table);
    InputStream gzipped = new StorageInputStream(reports, dataFile);
    return new InventoryRows(manifest, dataFile, gzipped, manifest.sourceBucket(), tableKey);
  }

  /** The table's key in the reported bucket; refuses a table of another bucket. */
  private String keyInReport(TableLocation table) {
    URI tableUri = URI.create(table.uri());
    if (!manifest.sourceBucket().equals(tableUri.getAuthority())) {
      throw new InventoryException("S3 Inventory " + manifestUri + " lists bucket " + manifest.sourceBucket()
          + ", not the bucket of table " + table);
    }
    return tableUri.getPath() == null ? "" : tableUri.getPath().replaceAll("^/+|/+$", "");
  }

  /** Opens the bucket the report lives in, for {@link #rows}. */
  public TableStorage openReports(TableStorageFactory storage) {
    return storage.open(reportBucket);
  }

  /** Every file of the table in the whole report, data file after data file. */
  public Iterator<FileEntry> allRows(TableStorage reports, TableLocation table) {
    keyInReport(table);
    Iterator<String> files = dataFiles().iterator();
    return new Iterator<>() {
      private InventoryRows current;

      @Override
      public boolean hasNext() {
        while (current == null || !current.hasNext()) {
          if (current != null) {
            current.close();
            current = null;
          }
          if (!files.hasNext()) {
            return false;
          }
          current = rows(reports, files.next(), table);
        }
        return true;
      }

      @Override
      public FileEntry next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return current.next();
      }
    };
  }
}
