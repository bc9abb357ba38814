package dev.lancemaintenance.benchmarks;

import java.util.Map;

/** The child side of {@link ChildJvmCleanup}: one run of one contender, printed as a RESULT line. */
final class ChildRun {
  private ChildRun() {}

  static void run(RunnerOptions options) {
    String engine = options.single().orElseThrow();
    try (Contender contender = switch (engine) {
      case "sdk" -> new SdkCleanup();
      case "local" -> new LocalEngineCleanup();
      case "spark" -> new SparkCallCleanup(Map.of());
      case "flink" -> new FlinkJobCleanup();
      default -> throw new IllegalArgumentException("engine " + engine + " cannot run in a child JVM");
    }) {
      RunSample sample = Measure.run(contender, Table.local(options.table().orElseThrow()),
          options.beforeVersion().orElseThrow());
      System.out.println(sample.encode());
    }
    System.exit(0);
  }
}
