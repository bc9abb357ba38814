package dev.lancemaintenance.testing;

import java.util.Objects;

/** What the SDK's cleanup did: removed files (with its counters) or refused with a message. */
public sealed interface OracleOutcome {

  record Removed(OracleStats stats) implements OracleOutcome {
    public Removed {
      Objects.requireNonNull(stats, "stats");
    }
  }

  record Failed(String message) implements OracleOutcome {
    public Failed {
      Objects.requireNonNull(message, "message");
    }
  }

  /** The counters; fails the test with the SDK's message when cleanup refused. */
  default OracleStats stats() {
    if (this instanceof Removed removed) {
      return removed.stats();
    }
    throw new AssertionError("SDK cleanup failed: " + ((Failed) this).message());
  }
}
