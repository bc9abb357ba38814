package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.MaintenanceException;
import java.util.List;

/**
 * Retained versions reference files that the listing of the table's own directories does not show.
 * The table is damaged (a file was lost or a manifest names one that never existed) or the store's
 * listing is incomplete; either way the run cannot tell which files are really unreferenced, so it
 * refuses before any delete. Lance's own cleanup does not check and deletes on (issue 12, item 11).
 */
public class MissingFilesException extends MaintenanceException {
  private final long count;
  private final List<String> examples;

  public MissingFilesException(String table, long count, List<String> examples) {
    super(message(table, count, examples));
    this.count = count;
    this.examples = List.copyOf(examples);
  }

  /** How many referenced files (or index directories) were missing. */
  public long count() {
    return count;
  }

  /** Some of them, table-relative, in order. */
  public List<String> examples() {
    return examples;
  }

  private static String message(String table, long count, List<String> examples) {
    String more = count > examples.size() ? ", and " + (count - examples.size()) + " more" : "";
    // None named only when a run that decided from the key snapshot, which counts missing keys by
    // their hashes, found none of them in the kept versions' manifests it decoded for this message.
    String named = examples.isEmpty() ? "a run with mode => 'full' names them" : String.join(", ", examples) + more;
    return "Cannot clean up " + table + ": " + count + " file(s) that retained versions reference are not in"
        + " the table's listing (" + named + "). The table is damaged or"
        + " the store's listing is incomplete, so nothing was deleted; restore the files, or restore a"
        + " version that does not need them, before cleaning up.";
  }
}
