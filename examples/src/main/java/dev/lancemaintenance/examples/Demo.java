package dev.lancemaintenance.examples;

import dev.lancemaintenance.cli.MaintenanceCli;
import dev.lancemaintenance.spark.SparkCleanupAction;
import dev.lancemaintenance.storage.TableLease;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * The README's first command: writes a demo table with the official Lance writer, shows it, cleans
 * it up (every version but the latest) with {@code CALL lance.cleanup(...)} in a local Spark
 * session, prints the procedure's result row, and shows the bytes on disk before and after.
 */
public final class Demo {
  static final String USAGE =
      "demo [<new-table-path>]\n"
          + "      write a demo table (default demo/demo.lance), clean it up with CALL lance.cleanup in Spark\n"
          + "      local mode, print the result row and the bytes on disk before and after; never deletes\n"
          + "      anything it did not write (an existing path is used only if empty or an earlier demo's)";
  /** Written into every table the demo creates: the proof that a rerun may replace it. */
  static final String MARKER = ".lance-maintenance-demo";
  /**
   * What a demo table holds: the marker, the directories the Lance writer makes, and the lease
   * directory its own cleanup leaves.
   */
  private static final Set<String> DEMO_ENTRIES =
      Set.of(MARKER, "_versions", "_transactions", "data", "_deletions", "_indices", "_refs", TableLease.DIR);

  private Demo() {}

  static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.size() == 1 && (args.get(0).equals("--help") || args.get(0).equals("-h"))) {
      out.println("usage: lance-maintenance " + USAGE);
      return 0;
    }
    if (args.size() > 1 || (args.size() == 1 && args.get(0).startsWith("-"))) {
      err.println("lance-maintenance: demo takes at most one path, a new one: " + String.join(" ", args));
      err.println("usage: lance-maintenance " + USAGE);
      return 2;
    }
    Path root = Paths.get(args.isEmpty() ? "demo/demo.lance" : args.get(0)).toAbsolutePath().normalize();
    try {
      prepare(root);
    } catch (IllegalStateException e) {
      err.println("lance-maintenance: " + e.getMessage());
      return 1;
    }
    long latest = DemoTable.write(root, 12, 100);
    String uri = root.toString();
    out.printf("Wrote %s with the official Lance writer: %d versions%n%n", uri, latest);
    int inspected = MaintenanceCli.execute(List.of("inspect", uri), out, err);
    if (inspected != 0) {
      return inspected;
    }
    long before = bytesOnDisk(root);
    String call = "CALL lance.cleanup(table => '" + uri.replace("'", "\\'") + "', older_than => '0s')";
    // A table this small would be cleaned in the Spark driver; the demo shows the Spark jobs.
    out.printf("%nCleaning up every version but the latest as Spark jobs in local mode (%s=0):%n  %s%n%n",
        SparkCleanupAction.DISTRIBUTE_ABOVE_CONF, call);
    SparkSession spark = SparkSql.session("local[2]", Map.of(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF, "0"));
    try {
      SparkSql.print(spark.sql(call), out);
    } finally {
      spark.stop();
    }
    long after = bytesOnDisk(root);
    out.printf("%nBytes on disk: %,d before, %,d after (%,d reclaimed)%n", before, after, before - after);
    return 0;
  }

  static long bytesOnDisk(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(Demo::size).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Makes {@code root} ready for a fresh demo table: creates it when absent; an empty directory is
   * used as it is; an earlier demo's table (its marker, and nothing a demo does not write) is
   * replaced. Anything else is refused: the demo never deletes what it did not create.
   */
  static void prepare(Path root) {
    try {
      if (Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
          throw refused(root, "it is not a directory");
        }
        List<String> entries;
        try (Stream<Path> children = Files.list(root)) {
          entries = children.map(child -> child.getFileName().toString()).sorted().toList();
        }
        if (!entries.isEmpty()) {
          if (!Files.isRegularFile(root.resolve(MARKER), LinkOption.NOFOLLOW_LINKS)) {
            throw refused(root, "it is not empty and no demo wrote it");
          }
          List<String> foreign = entries.stream().filter(entry -> !DEMO_ENTRIES.contains(entry)).toList();
          if (!foreign.isEmpty()) {
            throw refused(root, "an earlier demo wrote it, but it now also holds " + foreign);
          }
          deleteRecursively(root);
        }
      }
      Files.createDirectories(root);
      Files.writeString(root.resolve(MARKER), "written by lance-maintenance demo; a rerun replaces this table\n");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot prepare the demo table " + root, e);
    }
  }

  private static IllegalStateException refused(Path root, String why) {
    return new IllegalStateException(
        "demo: refusing to write into " + root + ": " + why + ". Give a new path (lance-maintenance demo <new-path>);"
            + " the demo never deletes what it did not create");
  }

  /** Deletes an earlier demo's table; links are deleted as links, never followed. */
  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
