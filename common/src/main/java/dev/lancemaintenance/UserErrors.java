package dev.lancemaintenance;

import java.util.HashSet;
import java.util.Set;

/**
 * The one line a user reads when a run fails. Engines wrap the error that matters (a Spark job
 * failure around a task's {@link MaintenanceException}, a Flink {@code TableException} around a
 * procedure's argument error): the line is the innermost error this project raised on purpose,
 * else the outermost message, its first non-blank line only, so that a stack trace is never the answer to a
 * mistake (it stays available with {@code --verbose}).
 */
public final class UserErrors {
  private UserErrors() {}

  public static String message(Throwable error) {
    Throwable chosen = null;
    Set<Throwable> seen = new HashSet<>();
    for (Throwable cause = error; cause != null && seen.add(cause); cause = cause.getCause()) {
      if (cause instanceof MaintenanceException || cause instanceof IllegalArgumentException) {
        chosen = cause;
      }
    }
    Throwable shown = chosen != null ? chosen : error;
    String message = shown.getMessage() == null ? null : shown.getMessage().strip();
    if (message == null || message.isEmpty()) {
      message = shown.getClass().getSimpleName();
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
