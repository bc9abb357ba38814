package dev.lancemaintenance.format;

import dev.lancemaintenance.MaintenanceException;

/**
 * A manifest asks for a format feature this reader does not understand. Reading on regardless
 * could miss files the version needs (data overlays, for instance, name files we do not track), so
 * maintenance stops before touching anything.
 */
public class UnsupportedFeatureException extends MaintenanceException {
  public UnsupportedFeatureException(String table, String file, String feature) {
    super("Cannot maintain table " + table + ": it uses " + feature + " that lance-maintenance does "
        + "not understand (" + file + "). Use a lance-maintenance release that supports it.");
  }
}
