package dev.lancemaintenance.ledger;

import dev.lancemaintenance.MaintenanceException;

/**
 * A ledger file that does not decode or does not fit the rest of the ledger. Never fatal to a
 * run: the ledger is then unusable and the run marks from the manifests themselves.
 */
public final class LedgerFormatException extends MaintenanceException {
  public LedgerFormatException(String file, String problem) {
    super("Ledger file " + file + " is unusable: " + problem);
  }
}
