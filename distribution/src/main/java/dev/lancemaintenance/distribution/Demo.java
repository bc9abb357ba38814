package dev.lancemaintenance.distribution;

import dev.lancemaintenance.cli.MaintenanceCli;
import dev.lancemaintenance.examples.DemoTable;
import dev.lancemaintenance.spark.SparkCleanupAction;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
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
      DemoTable.prepare(root);
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
}
