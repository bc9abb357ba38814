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

  /**
   * The first of these errors in {@code failure}'s cause chain: engines wrap a task's error in
   * layers of their own (job aborted, restart, collect), while callers of every engine expect the
   * error the stage threw, with its one-line message.
   */
  public static java.util.Optional<MaintenanceException> in(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof MaintenanceException maintenance) {
        return java.util.Optional.of(maintenance);
      }
    }
    return java.util.Optional.empty();
  }
}
