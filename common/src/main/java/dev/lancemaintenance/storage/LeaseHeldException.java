package dev.lancemaintenance.storage;

import dev.lancemaintenance.MaintenanceException;
import java.time.Instant;

/**
 * A maintenance run could not take its table's {@link TableLease}: another run holds it. Thrown
 * before the run reads or deletes anything. The message names the holder (run id, host, pid, since
 * when, until when) and the lease file; never a credential.
 */
public final class LeaseHeldException extends MaintenanceException {
  private final String holder;

  LeaseHeldException(String action, TableLocation table, TableLease.Lease held, String leasePath) {
    super(message(action, table, held, leasePath));
    this.holder = held.holder().owner();
  }

  /** The owner id of the run that holds the lease. */
  public String holderOwner() {
    return holder;
  }

  private static String message(String action, TableLocation table, TableLease.Lease held, String leasePath) {
    if (held.unreadable()) {
      return "Cannot " + action + " " + table + ": another maintenance run is taking the table's lease right now"
          + " (its lease file is still being written, " + table.resolveRedacted(leasePath) + "); nothing was deleted."
          + " Run again once it ends; a lease file that stays unreadable counts as free after "
          + Instant.ofEpochMilli(held.expiresAtMillis()) + ".";
    }
    return "Cannot " + action + " " + table + ": another maintenance run holds the table's lease: "
        + held.holder().describe() + ", since " + Instant.ofEpochMilli(held.sinceMillis())
        + ", renewed until " + Instant.ofEpochMilli(held.expiresAtMillis()) + ". Nothing was deleted."
        + " Run again once it ends; if it died, its lease can be taken after that time (at once by a run on"
        + " the same machine). Lease file: " + table.resolveRedacted(leasePath);
  }
}
