package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.benchmarks.generate.TableShape;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The runner's command line.
 *
 * <pre>
 * --shape large|huge|steady|wide|huge-steady   generate (or reuse) a table of this shape under --work
 * --versions N                     scale the shape (toy and medium runs)
 * --table DIR --before-version N   or clean an existing local table
 * --work DIR                       tables and copies (default /tmp/lance-benchmarks)
 * --engines sdk,local,spark,flink,floor   contenders, in this order (default: these five)
 *           local-incremental,spark-incremental,flink-incremental   the daily run on yesterday's ledger
 *                                  and key snapshot
 *           sdk-cold,cli-cold      also: the SDK, and bin/lance-maintenance cleanup, each in a fresh
 *                                  process timed from spawn to exit (cli-cold is compared to sdk-cold);
 *           cli-tiered-cold        cli-cold with the JVM's tiered compilation (C2) back
 *           spark-cluster          CALL lance.cleanup as jobs on a Spark standalone cluster
 *           flink-session          flink run of the job jar on a Flink session cluster
 * --repeats N --warmups N          timed runs (default 3) after untimed ones (default 1)
 * --child-xmx 512m                 run each contender in a child JVM with this heap cap
 * </pre>
 */
record RunnerOptions(Optional<TableShape> shape, Optional<Path> table, Optional<Long> beforeVersion, Path work,
    List<String> engines, int repeats, int warmups, Optional<String> childXmx, Optional<String> single) {

  static final List<String> ALL_ENGINES = List.of("sdk", "local", "spark", "flink", "floor");

  RunnerOptions {
    if (shape.isEmpty() && table.isEmpty()) {
      throw new IllegalArgumentException("give --shape NAME or --table DIR");
    }
    if (table.isPresent() && beforeVersion.isEmpty()) {
      throw new IllegalArgumentException("--table needs --before-version");
    }
    if (repeats < 1 || warmups < 0) {
      throw new IllegalArgumentException("--repeats must be >= 1 and --warmups >= 0");
    }
  }

  static RunnerOptions parse(String[] args) {
    Optional<TableShape> shape = Optional.empty();
    Integer versions = null;
    Optional<Path> table = Optional.empty();
    Optional<Long> beforeVersion = Optional.empty();
    Path work = Path.of("/tmp/lance-benchmarks");
    List<String> engines = ALL_ENGINES;
    int repeats = 3;
    int warmups = 1;
    Optional<String> childXmx = Optional.empty();
    Optional<String> single = Optional.empty();
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--shape" -> shape = Optional.of(TableShape.named(value));
        case "--versions" -> versions = Integer.parseInt(value);
        case "--table" -> table = Optional.of(Path.of(value).toAbsolutePath().normalize());
        case "--before-version" -> beforeVersion = Optional.of(Long.parseLong(value));
        case "--work" -> work = Path.of(value).toAbsolutePath().normalize();
        case "--engines" -> engines = List.of(value.split(","));
        case "--repeats" -> repeats = Integer.parseInt(value);
        case "--warmups" -> warmups = Integer.parseInt(value);
        case "--child-xmx" -> childXmx = Optional.of(value);
        case "--single" -> single = Optional.of(value);
        default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see RunnerOptions)");
      }
      i++;
    }
    if (versions != null && shape.isPresent()) {
      shape = Optional.of(shape.get().withVersions(versions));
    }
    return new RunnerOptions(shape, table, beforeVersion, work, engines, repeats, warmups, childXmx, single);
  }
}
