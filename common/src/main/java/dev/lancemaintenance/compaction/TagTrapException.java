package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.tags.TableTags;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Optimize refused before compacting: the cleanup that follows would refuse because tagged
 * versions would be old, one of them perhaps the current latest version, which the compaction's
 * commit turns into an old one. LanceDB finds this out only after compacting; we check first.
 */
public class TagTrapException extends MaintenanceException {
  private final SortedMap<String, Long> tags;

  public TagTrapException(String table, Map<String, Long> tags, long latestVersion) {
    super(message(table, tags, latestVersion));
    this.tags = new TreeMap<>(tags);
  }

  /** The tags the cleanup would refuse over, and their versions. */
  public SortedMap<String, Long> tags() {
    return tags;
  }

  private static String message(String table, Map<String, Long> tags, long latestVersion) {
    String list =
        new TreeMap<>(tags).entrySet().stream()
            .map(e -> e.getKey() + " -> v" + e.getValue()
                + (e.getValue() == latestVersion ? " (the latest version now; compaction makes it old)" : ""))
            .collect(Collectors.joining(", "));
    return "Cannot optimize "
        + table
        + ": the cleanup after compaction would refuse, because "
        + tags.size()
        + " tagged version(s) would be older than the window ("
        + list
        + "). Nothing was compacted. Move the tag(s) to a version the cleanup keeps or delete them ("
        + TableTags.COMMANDS + "),"
        + " or widen the window (a longer older_than); or set error_if_tagged_old_versions=false to"
        + " compact and clean up while keeping the tagged versions and their files.";
  }
}
