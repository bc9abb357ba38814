package dev.lancemaintenance.tags;

import dev.lancemaintenance.MaintenanceException;

/** A tag command refused: names the table, the tag and why; nothing was written. */
public final class TagException extends MaintenanceException {
  TagException(Object table, String tag, String problem) {
    super("Tag " + (tag == null ? "" : "'" + tag + "' ") + "of " + table + ": " + problem);
  }
}
