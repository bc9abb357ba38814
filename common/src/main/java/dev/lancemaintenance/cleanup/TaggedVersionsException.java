package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.tags.TableTags;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The policy would remove tagged versions that are not the latest, and {@code
 * error_if_tagged_old_versions} is on. Raised after planning and before any delete, as Lance does.
 */
public class TaggedVersionsException extends MaintenanceException {
  private final SortedMap<String, Long> tags;

  public TaggedVersionsException(String table, Map<String, Long> tags) {
    super(message(table, tags));
    this.tags = new TreeMap<>(tags);
  }

  /** The offending tags and the versions they point at. */
  public SortedMap<String, Long> tags() {
    return tags;
  }

  private static String message(String table, Map<String, Long> tags) {
    String list =
        new TreeMap<>(tags).entrySet().stream()
            .map(e -> e.getKey() + " -> v" + e.getValue())
            .collect(Collectors.joining(", "));
    return "Cannot clean up "
        + table
        + ": "
        + tags.size()
        + " tagged version(s) have been marked for cleanup ("
        + list
        + "). Move or delete the tag(s) (" + TableTags.COMMANDS + "), narrow the window (older_than /"
        + " before_version), or set error_if_tagged_old_versions=false to keep tagged versions and clean the rest.";
  }
}
