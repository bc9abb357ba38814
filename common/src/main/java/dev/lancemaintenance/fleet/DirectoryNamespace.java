package dev.lancemaintenance.fleet;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TablePaths;
import dev.lancemaintenance.storage.TableStorage;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.regex.PatternSyntaxException;

/**
 * The tables of a Lance directory namespace, as Lance's own directory namespace lays them out (its
 * V1 listing, which the V2 manifest namespace keeps for root tables in its default compatibility
 * mode): each table is a directory {@code <name>.lance} directly under the root; a table directory
 * holding {@code .lance-deregistered} is not listed, one holding only {@code .lance-reserved} is not
 * created yet. Tables that only a V2 {@code __manifest} names sit in hash-named directories ({@code
 * <hash>_<id>}): {@code pattern => '*'} takes them too.
 *
 * <p>Finding the tables is one listing of the root; whether a directory is a table is checked on
 * the table's own worker ({@link #inspect}), so the driver holds one name per table and lists no
 * table.
 */
public final class DirectoryNamespace {
  /** Lance's table directories. */
  public static final String DEFAULT_PATTERN = "*.lance";
  static final String DEREGISTERED = ".lance-deregistered";
  static final String RESERVED = ".lance-reserved";

  private DirectoryNamespace() {}

  /**
   * The directories directly under {@code root} whose names match the glob {@code pattern}, sorted
   * by name. The root must exist and must not be a table itself (a call meant for one table).
   */
  public static List<TableLocation> tables(TableStorage root, String pattern) {
    PathMatcher matcher = matcher(pattern);
    if (VersionListing.latest(root, DatasetRef.MAIN).isPresent()) {
      throw new IllegalArgumentException("Parameter 'root': " + root.location()
          + " is a Lance table, not a directory of tables; give the directory above it, or clean this table alone");
    }
    List<TableLocation> tables = new ArrayList<>();
    for (String name : root.listDirectories("")) {
      if (matcher.matches(Path.of(name))) {
        tables.add(TableLocation.of(root.location().resolve(name)));
      }
    }
    return tables;
  }

  private static PathMatcher matcher(String pattern) {
    if (pattern == null || pattern.isBlank() || pattern.contains("/")) {
      throw new IllegalArgumentException("Parameter 'pattern' is a glob over the names of the directories under the"
          + " root (default " + DEFAULT_PATTERN + "), not '" + pattern + "'");
    }
    try {
      return FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("Parameter 'pattern': '" + pattern + "' is not a glob: " + e.getDescription(), e);
    }
  }

  /**
   * What a worker sees of a matching directory before running it.
   *
   * @param listed the table's versions, as {@code _versions/} lists them (empty when left alone):
   *     what a worker weighs before running it ({@link FleetRun#onWorker})
   */
  record Inspection(Optional<TableOutcome> leftAlone, List<ManifestLocation> listed) {}

  /**
   * Whether a matching directory is left alone, and the versions it lists: deregistered or
   * reserved in its namespace (skipped), or not a Lance table at all (failed: no manifest under
   * {@code _versions/}).
   */
  static Inspection inspect(TableStorage table) {
    boolean deregistered = false;
    boolean reserved = false;
    for (Iterator<FileEntry> files = table.listFiles("", false); files.hasNext(); ) {
      String name = TablePaths.fileName(files.next().path());
      deregistered |= name.equals(DEREGISTERED);
      reserved |= name.equals(RESERVED);
    }
    TableLocation location = table.location();
    if (deregistered) {
      return new Inspection(Optional.of(TableOutcome.leftAlone(location, TableStatus.SKIPPED,
          "is deregistered from its namespace (" + DEREGISTERED + "); left alone")), List.of());
    }
    List<ManifestLocation> listed = VersionListing.list(table, DatasetRef.MAIN);
    if (listed.isEmpty()) {
      return new Inspection(Optional.of(reserved
          ? TableOutcome.leftAlone(location, TableStatus.SKIPPED, "is reserved and not created yet (" + RESERVED + ")")
          : TableOutcome.leftAlone(location, TableStatus.FAILED,
              "is not a Lance table: no manifest under _versions/; nothing was deleted")), List.of());
    }
    return new Inspection(Optional.empty(), listed);
  }
}
