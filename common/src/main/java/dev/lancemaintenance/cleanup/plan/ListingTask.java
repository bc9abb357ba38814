package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.inventory.S3Inventory;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One unit of work of the list stage: a directory to walk for candidate files; a directory the
 * plan already walked, whose files it hands over ({@code _versions/}, {@link
 * CleanupPlanner}); when the run lists from an S3 Inventory report, one data file of the report
 * read for the managed directories under {@code dir} (the dataset being cleaned); or, when the run
 * resumes a dead run's sweep, one part of the files that run decided.
 *
 * @param dir the directory, relative to the table
 * @param recursive whether to walk below it
 * @param inventoryPart the report's data file to read instead of walking {@code dir}; null to walk it
 * @param recorded the dead run's decided part to read instead of walking {@code dir}; null to walk it
 * @param listed every file at or below {@code dir} as the plan's own walk found them, given instead
 *     of walking it again; null to walk it
 */
public record ListingTask(
    String dir, boolean recursive, S3Inventory.Part inventoryPart, RecordedListing recorded, List<FileEntry> listed)
    implements Serializable {
  public ListingTask {
    Objects.requireNonNull(dir, "dir");
    if ((inventoryPart != null ? 1 : 0) + (recorded != null ? 1 : 0) + (listed != null ? 1 : 0) > 1) {
      throw new IllegalArgumentException("a listing task reads one of an inventory, a recorded part or a listing");
    }
    listed = listed == null ? null : List.copyOf(listed);
  }

  /** A directory walked in the store. */
  public ListingTask(String dir, boolean recursive) {
    this(dir, recursive, null, null, null);
  }

  /** One data file of an inventory, read for the managed directories of {@code dataset}. */
  public static ListingTask fromInventory(DatasetRef dataset, S3Inventory.Part part) {
    return new ListingTask(dataset.dir(), true, Objects.requireNonNull(part, "part"), null, null);
  }

  /** One part of the files a dead run of {@code dataset} decided, read back to be decided again. */
  public static ListingTask fromRecord(DatasetRef dataset, RecordedListing part) {
    return new ListingTask(dataset.dir(), true, null, Objects.requireNonNull(part, "part"), null);
  }

  /** A directory the plan walked (recursively) already: its files, as that walk found them. */
  public static ListingTask listedByPlan(String dir, List<FileEntry> files) {
    return new ListingTask(dir, true, null, null, Objects.requireNonNull(files, "files"));
  }

  /** The dataset whose managed directories an inventory task reads, which {@link #dir} holds. */
  public DatasetRef inventoryDataset() {
    return new DatasetRef(dir);
  }

  /** What the task lists, for logs and messages. */
  public String describe() {
    if (recorded != null) {
      return recorded.describe();
    }
    return inventoryPart == null ? dir : inventoryPart.dataFile() + " of " + inventoryPart.manifestUri();
  }
}
