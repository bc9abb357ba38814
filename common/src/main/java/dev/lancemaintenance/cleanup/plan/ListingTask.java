package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.inventory.S3Inventory;
import java.io.Serializable;
import java.util.Objects;

/**
 * One unit of work of the list stage: a directory to walk for candidate files, or, when the run
 * lists from an S3 Inventory report, one data file of the report read for the managed directories
 * under {@code dir} (the dataset being cleaned).
 *
 * @param dir the directory, relative to the table
 * @param recursive whether to walk below it
 * @param inventoryPart the report's data file to read instead of walking {@code dir}; null to walk it
 */
public record ListingTask(String dir, boolean recursive, S3Inventory.Part inventoryPart) implements Serializable {
  public ListingTask {
    Objects.requireNonNull(dir, "dir");
  }

  /** A directory walked in the store. */
  public ListingTask(String dir, boolean recursive) {
    this(dir, recursive, null);
  }

  /** One data file of an inventory, read for the managed directories of {@code dataset}. */
  public static ListingTask fromInventory(DatasetRef dataset, S3Inventory.Part part) {
    return new ListingTask(dataset.dir(), true, Objects.requireNonNull(part, "part"));
  }

  /** The dataset whose managed directories an inventory task reads, which {@link #dir} holds. */
  public DatasetRef inventoryDataset() {
    return new DatasetRef(dir);
  }

  /** What the task lists, for logs and messages. */
  public String describe() {
    return inventoryPart == null ? dir : inventoryPart.dataFile() + " of " + inventoryPart.manifestUri();
  }
}
