package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.testing.cluster.StandaloneCluster;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code spark-cluster}: the cleanup as Spark jobs on a standalone cluster as deployed. A Master and
 * a Worker (2 cores) run from the Spark Maven artifacts that {@code connector-spark}'s package copies
 * into {@code target/spark-home}, started once; every run is a new application (a driver JVM whose
 * class path is Spark's jars and the bundle jar, the bundle shipped to the executors with {@code
 * spark.jars}), so executors are new JVMs each time, as for a scheduled {@code spark-submit}. Every
 * table is distributed ({@code spark.lance.cleanup.distributeAbove=0}): no stage runs in the driver.
 *
 * <p>The sample is the {@code CALL}'s own duration as the driver timed it; the application's wall time
 * (JVM, session and executors started, stopped) is printed beside it.
 */
final class SparkClusterCleanup implements SelfMeasuring {
  private final StandaloneCluster cluster;
  private final Path bundle;
  private int runs;

  SparkClusterCleanup(Path home, Path workDir) {
    Path build = home.resolve("connector-spark/target");
    this.bundle = StandaloneCluster.bundleJar(build);
    this.cluster = StandaloneCluster.start(build.resolve("spark-home"), workDir, 2);
  }

  @Override
  public String name() {
    return "spark-cluster";
  }

  @Override
  public RunSample measure(Table table, long beforeVersion) {
    Map<String, String> conf = new LinkedHashMap<>(StandaloneCluster.applicationConf(bundle));
    conf.put("spark.sql.catalog.lance", "dev.lancemaintenance.spark.procedures.LanceProcedureCatalog");
    conf.put("spark.lance.cleanup.distributeAbove", "0");
    long start = System.nanoTime();
    String out = cluster.runDriver("driver-" + ++runs, cluster.sparkClassPath() + ":" + bundle + ":" + driverClasses(),
        conf, SparkClusterDriver.class.getName(),
        List.of(cluster.masterUrl(), table.hadoopUri(), Long.toString(beforeVersion)));
    long application = System.nanoTime() - start;
    long callMillis = out.lines().filter(line -> line.startsWith(SparkClusterDriver.CALL_MS))
        .mapToLong(line -> Long.parseLong(line.substring(SparkClusterDriver.CALL_MS.length()).trim()))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the driver printed no " + SparkClusterDriver.CALL_MS + "line: " + out));
    System.out.printf("  spark-cluster application: %d ms (driver JVM, session, executors, CALL %d ms)%n",
        application / 1_000_000, callMillis);
    return new RunSample(callMillis * 1_000_000, 0, -1, OptionalLong.empty(), 0, OptionalLong.empty(), false);
  }

  @Override
  public void close() {
    cluster.close();
  }

  /** This module's classes (its jar, or its classes directory in a test), for the driver's main class. */
  private static Path driverClasses() {
    try {
      return Path.of(SparkClusterDriver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
