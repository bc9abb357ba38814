package dev.lancemaintenance.format;

import dev.lancemaintenance.MaintenanceException;

/**
 * A file that Lance's format says must be readable is not: a manifest with a bad footer or a
 * protobuf that does not parse, a version file name that is not a number, a ref that is not JSON.
 *
 * <p>Nothing is skipped on purpose: an I/O error and a corrupt file look alike, and maintenance that
 * ignored either could delete files a live version still needs.
 */
public class CorruptTableException extends MaintenanceException {
  private final String file;

  public CorruptTableException(String table, String file, String problem) {
    super(message(table, file, problem));
    this.file = file;
  }

  public CorruptTableException(String table, String file, String problem, Throwable cause) {
    super(message(table, file, problem), cause);
    this.file = file;
  }

  private static String message(String table, String file, String problem) {
    return "Cannot read table " + table + ": " + problem + " (" + file + ")";
  }

  /** The table-relative path of the file that failed. */
  public String file() {
    return file;
  }
}
