package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.net.URI;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * An S3 Inventory report as the listing of one table: its data files are read one by one (engines
 * hand them to separate tasks as {@link Part}s), each as a stream of the table's files. The report's
 * own bucket is read through the same storage layer and settings as the table.
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
    URI uri;
    try {
      uri = URI.create(manifestUri);
    } catch (IllegalArgumentException e) {
      throw new InventoryException("S3 Inventory manifest " + manifestUri + " is not a URI: " + e.getMessage(), e);
    }
    if (uri.getScheme() == null || uri.getAuthority() == null || uri.getPath() == null || uri.getPath().length() < 2) {
      throw new InventoryException("S3 Inventory manifest " + manifestUri + " is not a URI of the form s3a://bucket/key");
    }
    TableLocation bucket = TableLocation.of(uri.getScheme() + "://" + uri.getAuthority());
    try (TableStorage reports = storage.open(bucket)) {
      byte[] json;
      try {
        json = reports.readFully(uri.getPath().substring(1));
      } catch (RuntimeException e) {
        throw new InventoryException("S3 Inventory manifest " + manifestUri + " cannot be read: " + e.getMessage(), e);
      }
      return new S3Inventory(manifestUri, bucket, InventoryManifest.parse(manifestUri, json));
    }
  }

  public InventoryManifest manifest() {
    return manifest;
  }

  /** The manifest's URI, for messages. */
  public String manifestUri() {
    return manifestUri;
  }

  /** The report's data files: the unit of work of a listing from it. */
  public List<String> dataFiles() {
    return manifest.dataFiles();
  }

  /**
   * The report's data files as units of work for the listing of {@code table}, each small enough
   * to ship (the manifest's header, not its list of data files).
   *
   * @throws InventoryException when the report is of another bucket than the table's
   */
  public List<Part> parts(TableLocation table) {
    keyInReport(table);
    InventoryManifest header = manifest.header();
    return dataFiles().stream().map(file -> new Part(manifestUri, reportBucket, header, file)).toList();
  }

  /** Opens the bucket the report lives in, for {@link #allRows}. */
  public TableStorage openReports(TableStorageFactory storage) {
    return storage.open(reportBucket);
  }

  /** Every file of the table in the whole report, data file after data file. */
  public Iterator<FileEntry> allRows(TableStorage reports, TableLocation table) {
    Iterator<Part> parts = parts(table).iterator();
    return new Iterator<>() {
      private InventoryRows current;

      @Override
      public boolean hasNext() {
        while (current == null || !current.hasNext()) {
          if (current != null) {
            current.close();
            current = null;
          }
          if (!parts.hasNext()) {
            return false;
          }
          current = parts.next().rows(reports, table);
        }
        return true;
      }

      @Override
      public FileEntry next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }
    };
  }

  /** The table's key in the reported bucket; refuses a table of another bucket. */
  private String keyInReport(TableLocation table) {
    return keyInReport(manifestUri, manifest, table);
  }

  private static String keyInReport(String manifestUri, InventoryManifest manifest, TableLocation table) {
    URI tableUri = URI.create(table.uri());
    if (!manifest.sourceBucket().equals(tableUri.getAuthority())) {
      throw new InventoryException("S3 Inventory " + manifestUri + " lists bucket " + manifest.sourceBucket()
          + ", not the bucket of table " + table);
    }
    return tableUri.getPath() == null ? "" : tableUri.getPath().replaceAll("^/+|/+$", "");
  }

  /**
   * One data file of a report: what a listing task reads.
   *
   * @param manifestUri the report's manifest, for messages
   * @param reportBucket the bucket the report lives in
   * @param header the manifest without its list of data files
   * @param dataFile the data file's key in {@code reportBucket}
   */
  public record Part(String manifestUri, TableLocation reportBucket, InventoryManifest header, String dataFile)
      implements Serializable {

    /** The table's files in this data file, read through {@code reports}; the caller closes the rows. */
    public InventoryRows rows(TableStorage reports, TableLocation table) {
      return InventoryRows.open(header, dataFile, reports, keyInReport(manifestUri, header, table));
    }
  }
}
