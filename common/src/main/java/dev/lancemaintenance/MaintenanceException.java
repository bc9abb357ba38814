package dev.lancemaintenance;

/**
 * Root of every error this project raises on purpose. Messages name the table, the file and the
 * rule that failed; they never contain credentials (see {@code TableLocation#toString()}).
 */
public class MaintenanceException extends RuntimeException {
  public MaintenanceException(String message) {
    super(message);
  }

  public MaintenanceException(String message, Throwable cause) {
    super(message, cause);
  }
}
