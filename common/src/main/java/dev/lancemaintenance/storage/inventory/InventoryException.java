package dev.lancemaintenance.storage.inventory;

import dev.lancemaintenance.MaintenanceException;

/** An S3 Inventory report that cannot be used: names the manifest or data file and the problem. */
public final class InventoryException extends MaintenanceException {
  InventoryException(String message) {
    super(message);
  }

  InventoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
