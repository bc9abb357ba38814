package dev.lancemaintenance.storage;

import dev.lancemaintenance.MaintenanceException;

/**
 * A path that should lie inside a table's root does not: {@code ..} segments, an absolute path, or a
 * reference that resolves outside the root. Nothing outside a table's root is ever touched.
 */
public class PathEscapeException extends MaintenanceException {
  public PathEscapeException(String table, String reference, String reason) {
    super("Path escapes the root of table " + table + ": '" + reference + "' (" + reason + ")");
  }
}
