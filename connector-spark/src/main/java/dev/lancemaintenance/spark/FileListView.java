package dev.lancemaintenance.spark;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.rules.InventorySnapshot;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A view of file paths as the listing of a table ({@code file_list_view}, as Iceberg's): any view
 * or table with the columns {@code path} (absolute paths or URIs, as the table's), {@code size} and
 * {@code last_modified} (a TIMESTAMP), e.g. an S3 Inventory report in ORC read as a DataFrame. The
 * executors read its rows ({@link ViewFiles}); the newest {@code last_modified} among the table's
 * rows stands for when it was taken, and the inventory's rules apply ({@link InventorySnapshot}):
 * only listed files go, nothing newer than it does. One home for the cleanup, {@code
 * remove_orphan_files} and the storage report.
 */
final class FileListView {
  private static final Logger LOG = LoggerFactory.getLogger(FileListView.class);
  /** The coarsest modification-time precision of a store (S3: whole seconds), for a view's time. */
  private static final long STORE_MTIME_PRECISION_MILLIS = 1_000L;

  private final SparkSession spark;
  private final String view;
  private final TableLocation table;

  FileListView(SparkSession spark, String view, TableLocation table) {
    this.spark = Objects.requireNonNull(spark, "spark");
    this.view = Objects.requireNonNull(view, "file_list_view");
    this.table = Objects.requireNonNull(table, "table");
  }

  /**
   * Stage {@code plan} of {@code cleanup} listed from the view: the planner's plan narrowed to what
   * the view vouches for, with no listing task (the view is read by {@link #files}).
   */
  CleanupPlan plan(TableStorage storage, CleanupPlanner planner, DatasetCleanup cleanup) {
    if (cleanup.inventory() != null) {
      throw new IllegalArgumentException("Cannot list " + table + ": give inventory or file_list_view, not both");
    }
    InventorySnapshot snapshot = snapshot(cleanup.dataset());
    LOG.info("lance {} [{}]: listing from {}; versions committed after it are kept, files modified after it"
        + " are not candidates", table, CleanupStage.PLAN.label(), snapshot);
    return planner.plan(storage, cleanup.policy(), cleanup.dataset(), cleanup.now().toEpochMilli(), snapshot);
  }

  /** The view's files of the dataset's managed directories, read on the executors. */
  JavaRDD<FileEntry> files(DatasetRef dataset) {
    Dataset<Row> rows;
    try {
      rows = spark.table(view).select("path", "size", "last_modified");
    } catch (Exception e) {
      throw new MaintenanceException("Cannot list " + table + " from file_list_view " + view
          + ": not a view with the columns path, size, last_modified (" + e.getMessage() + ")", e);
    }
    return rows.toJavaRDD().mapPartitions(new ViewFiles(view, table, dataset));
  }

  /**
   * The view as an inventory: taken no earlier than the newest modification time among the table's
   * rows (one reduced number), rounded up by a second since stores such as S3 keep whole seconds; a
   * view that shows no file of the table cannot vouch for anything. A time a little after the
   * view's real one only keeps less than it could, never deletes more: a file the view shows was
   * there when it was taken, and a version committed in between is kept or its missing files refuse
   * the run (docs/cleanup-semantics.md, section 16).
   */
  private InventorySnapshot snapshot(DatasetRef dataset) {
    long newest = files(dataset).map(FileEntry::modificationTimeMillis).fold(Long.MIN_VALUE, Math::max);
    if (newest == Long.MIN_VALUE) {
      throw new MaintenanceException("Cannot list " + dataset.describe(table.toString()) + " from file_list_view "
          + view + ": it shows no file of the managed directories; is it a listing of this table?");
    }
    return new InventorySnapshot("file_list_view " + view, newest + STORE_MTIME_PRECISION_MILLIS);
  }
}
