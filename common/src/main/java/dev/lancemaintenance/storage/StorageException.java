package dev.lancemaintenance.storage;

import dev.lancemaintenance.MaintenanceException;

/** An I/O operation on a table's storage failed; names the operation and the path. */
public class StorageException extends MaintenanceException {
  public StorageException(String operation, String path, Throwable cause) {
    super("Cannot " + operation + " " + path + ": " + cause.getMessage(), cause);
  }
}
