package dev.lancemaintenance.cli;

/** A command line that was not understood: exit code 2, with the usage. */
final class UsageException extends RuntimeException {
  UsageException(String message) {
    super(message);
  }

  UsageException(String message, Throwable cause) {
    super(message, cause);
  }
}
