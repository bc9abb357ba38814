package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.benchmarks.generate.CopyTree;
import dev.lancemaintenance.benchmarks.generate.GenerateTable;
import dev.lancemaintenance.benchmarks.generate.GeneratedTable;
import dev.lancemaintenance.benchmarks.generate.TableFiles;
import dev.lancemaintenance.benchmarks.generate.TableShape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Times cleanup of the same table by the SDK, our local engine, our Spark {@code CALL}, our Flink
 * job and the floor, each on a fresh {@code cp -a} copy, and prints one table; on request also the
 * SDK and {@code bin/lance-maintenance} each in a fresh process ({@code sdk-cold}, {@code cli-cold}). See
 * docs/benchmarks.md for the commands; {@link RunnerOptions} for every option.
 */
public final class BenchmarkRunner {
  private final RunnerOptions options;

  BenchmarkRunner(RunnerOptions options) {
    this.options = options;
  }

  public static void main(String[] args) throws Exception {
    RunnerOptions options = RunnerOptions.parse(args);
    if (options.single().isPresent()) {
      ChildRun.run(options);
      return;
    }
    new BenchmarkRunner(options).run().print(System.out);
    // Spark and Flink leave non-daemon threads behind.
    System.exit(0);
  }

  /** Runs every contender and returns the results (printing progress as it goes). */
  ResultTable run() {
    Path source = prepareTable();
    long beforeVersion = options.beforeVersion().orElseGet(() -> options.shape().orElseThrow().cleanupBeforeVersion());
    Reference reference = referenceRun(source, beforeVersion);
    System.out.printf("reference: the SDK removes %,d of %,d files (versions < %d)%n",
        reference.doomed().size(), reference.before().size(), beforeVersion);

    ResultTable results = new ResultTable(String.format(
        "%s, before_version %d, %d runs each after %d warm-up", source, beforeVersion, options.repeats(), options.warmups()));
    // Round by round, every contender once per round: on a shared machine the load moves, and
    // interleaving spreads it over all contenders instead of charging it to whichever ran then.
    List<Contender> contenders = new ArrayList<>();
    try {
      for (String engine : options.engines()) {
        contenders.add(options.childXmx().isPresent()
            ? new ChildJvmCleanup(engine, options.childXmx().get())
            : contender(engine, reference));
      }
      for (int i = 0; i < options.warmups() + options.repeats(); i++) {
        for (Contender contender : contenders) {
          RunSample sample = timedRun(contender, source, beforeVersion, reference, i);
          if (i >= options.warmups()) {
            results.add(contender.name(), sample);
          }
          System.out.printf("  %s run %d: %d ms%s%n", contender.name(), i + 1, sample.wallNanos() / 1_000_000,
              i < options.warmups() ? " (warm-up)" : "");
        }
      }
    } finally {
      closeAll(contenders);
    }
    return results;
  }

  private static void closeAll(List<Contender> contenders) {
    for (Contender contender : contenders) {
      try {
        contender.close();
      } catch (Exception e) {
        System.err.println("closing " + contender.name() + ": " + e);
      }
    }
  }

  private Path prepareTable() {
    if (options.table().isPresent()) {
      return options.table().get();
    }
    return generatedTable(options.shape().orElseThrow(), options.work());
  }

  /** The table of {@code shape} under {@code work}, generated unless it is there already. */
  static Path generatedTable(TableShape shape, Path work) {
    Path root = work.resolve(shape.name() + "-" + shape.latestVersion());
    if (Files.exists(root)) {
      System.out.println("reusing " + root);
      return root;
    }
    GeneratedTable table = GenerateTable.generate(shape, root, TableFiles.DataMode.LINK);
    System.out.println("generated " + table);
    return root;
  }

  /** Runs the SDK once, untimed, to learn which files a correct cleanup removes. */
  private Reference referenceRun(Path source, long beforeVersion) {
    Path copy = options.work().resolve("runs/reference");
    CopyTree.delete(copy);
    CopyTree.copy(source, copy);
    Set<String> before = CopyTree.listFiles(copy);
    new SdkCleanup().clean(Table.local(copy), beforeVersion);
    Set<String> after = CopyTree.listFiles(copy);
    CopyTree.delete(copy);
    Set<String> doomed = new HashSet<>(before);
    doomed.removeAll(after);
    return new Reference(before, after, List.copyOf(doomed));
  }

  private RunSample timedRun(Contender contender, Path source, long beforeVersion, Reference reference, int index) {
    Path copy = options.work().resolve("runs/" + contender.name() + "-" + index);
    CopyTree.delete(copy);
    CopyTree.copy(source, copy);
    contender.prepare(Table.local(copy));
    RunSample measured = Measure.run(contender, Table.local(copy), beforeVersion);
    Set<String> left = CopyTree.listFiles(copy);
    CopyTree.delete(copy);
    return new RunSample(measured.wallNanos(), reference.before().size() - left.size(), measured.metadataBytes(),
        measured.processReadBytes(), measured.peakHeapBytes(), measured.peakRssBytes(), left.equals(reference.after()));
  }

  private Contender contender(String engine, Reference reference) {
    return switch (engine) {
      case "sdk" -> new SdkCleanup();
      case "local" -> new LocalEngineCleanup();
      // The daily run: the ledger of the run before the shape's newest appends is on the table.
      case "local-incremental" -> new LocalEngineCleanup(options.shape().map(TableShape::tailAppends).orElse(0));
      case "local-expire" -> new LocalExpireVersions();
      case "spark" -> new SparkCallCleanup(Map.of());
      case "spark-incremental" -> new SparkCallCleanup(Map.of(), Optional.of(options.shape().map(TableShape::tailAppends).orElse(0)));
      case "flink" -> new FlinkJobCleanup();
      case "flink-incremental" -> new FlinkJobCleanup(Optional.of(options.shape().map(TableShape::tailAppends).orElse(0)));
      case "floor" -> new FloorCleanup(reference.doomed());
      case "sdk-cold" -> ColdProcessCleanup.sdk();
      case "cli-cold" -> ColdProcessCleanup.cli(home());
      case "cli-tiered-cold" -> ColdProcessCleanup.cliTiered(home());
      case "spark-cluster" -> new SparkClusterCleanup(home(), options.work().resolve("spark-cluster"));
      case "flink-session" -> new FlinkSessionCleanup(home(), options.work().resolve("flink-session"));
      default -> throw new IllegalArgumentException("unknown engine " + engine);
    };
  }

  /** The checkout or distribution whose {@code bin/} the cold contenders run. */
  private static Path home() {
    return Path.of(System.getProperty("lance.maintenance.home", "."));
  }

  /** What the SDK's reference run saw: the files before, the files after, and those it removed. */
  private record Reference(Set<String> before, Set<String> after, List<String> doomed) {}
}
