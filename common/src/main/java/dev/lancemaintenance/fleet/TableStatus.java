package dev.lancemaintenance.fleet;

import java.util.Locale;

/** What a fleet run did with one table; {@link #sqlName()} is the {@code status} column. */
public enum TableStatus {
  /** The table ran: its counters are those of a run on it alone (in a dry run, what would go). */
  OK,
  /** Left alone on purpose: deregistered from its namespace, or reserved and not created yet. */
  SKIPPED,
  /** The run refused the table before deleting anything: a tagged version would go. */
  REFUSED,
  /** The table could not run (not a Lance table, corrupt metadata, a store error); nothing was deleted on a failed check. */
  FAILED,
  /**
   * A worker left a large table to the driver, which runs it through the engine's action (its
   * distributed stages) and replaces this outcome, so it never reaches a result.
   */
  DEFERRED;

  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
