package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceException;

/**
 * Compaction needs the official Lance SDK, which is an optional dependency: cleanup runs without
 * it, compact and optimize do not. Raised before any work, naming the artifact to add.
 */
public class LanceSdkMissingException extends MaintenanceException {
  /** The SDK release this project is built and tested against. */
  public static final String ARTIFACT = "org.lance:lance-core:7.0.0";

  LanceSdkMissingException(String action, String table, String problem, Throwable cause) {
    super(
        "Cannot "
            + action
            + " "
            + table
            + ": "
            + problem
            + ". Compaction rewrites data with the Lance SDK; add "
            + ARTIFACT
            + " (and its Arrow dependencies) to the classpath. Cleanup does not need it.",
        cause);
  }
}
