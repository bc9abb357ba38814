package dev.lancemaintenance.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Stop 37's measurement (docs/benchmarks.md, "Stop 37"): a root of {@code copies} copies of a
 * steady table, each with yesterday's ledger and key snapshot ({@link YesterdaysRun}, the day's
 * {@code newVersions} above it), cleaned by one {@code CALL lance.cleanup_all(..., mode =>
 * 'incremental', distribute_above => 1000)} in a warm local[2] session; a warm-up round, then
 * {@code rounds} timed ones, each on fresh copies (the copies and their preparation untimed).
 * Compiled on its own against a build's {@code benchmarks/target/lib}, it measures that build's
 * fleet route: {@code java -cp <classes>:<lib>/* dev.lancemaintenance.benchmarks.FleetDaily <source>
 * <work> <copies> <newVersions> <beforeVersion> <rounds>}.
 */
public final class FleetDaily {
  private FleetDaily() {}

  public static void main(String[] args) throws Exception {
    Path source = Path.of(args[0]);
    Path work = Path.of(args[1]);
    int copies = Integer.parseInt(args[2]);
    int newVersions = Integer.parseInt(args[3]);
    long beforeVersion = Long.parseLong(args[4]);
    int rounds = Integer.parseInt(args[5]);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("fleet-daily")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.catalog.lance", "dev.lancemaintenance.spark.procedures.LanceProcedureCatalog")
        .getOrCreate();
    spark.range(10).count();
    for (int round = 0; round <= rounds; round++) {
      Path root = work.resolve("root-" + round);
      for (int copy = 0; copy < copies; copy++) {
        Path table = root.resolve("t" + copy + ".lance");
        copyTree(source, table);
        YesterdaysRun.leave(Table.local(table), newVersions);
      }
      long start = System.nanoTime();
      List<Row> rows = spark.sql("CALL lance.cleanup_all(root => '" + root.toAbsolutePath() + "', older_than => '0s',"
          + " before_version => " + beforeVersion + ", mode => 'incremental', distribute_above => 1000, dry_run => false)")
          .collectAsList();
      long millis = (System.nanoTime() - start) / 1_000_000;
      StringBuilder statuses = new StringBuilder();
      for (Row row : rows) {
        statuses.append(row.getString(1)).append(row.getAs("old_versions").toString()).append(' ');
      }
      System.out.println((round == 0 ? "warmup " : "round ") + round + " ms " + millis + " rows " + statuses);
      deleteTree(root);
    }
    spark.stop();
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path path : walk.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.delete(path);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
