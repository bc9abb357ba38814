package dev.lancemaintenance.cli;

/** The command line was not understood; the CLI prints the message and usage, and exits with 2. */
final class UsageException extends RuntimeException {
  UsageException(String message) {
    super(message);
  }
}
