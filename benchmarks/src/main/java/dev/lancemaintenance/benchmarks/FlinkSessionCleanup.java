package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.testing.cluster.FlinkSessionCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * {@code flink-session}: the job jar submitted to a Flink session cluster as deployed. A JobManager
 * and a TaskManager (2 slots) run from Flink's Maven artifacts that {@code connector-flink}'s package
 * copies into {@code target/flink-lib}, started once; every run is {@code flink run -c
 * dev.lancemaintenance.flink.FlinkCleanupJob <job jar> cleanup ...} (Flink's {@code CliFrontend} in a
 * client JVM, submitting through the REST endpoint), timed from the client's start to its exit: the
 * client's JVM, the job jar's upload, the job's class loading on the TaskManager and the job itself.
 */
final class FlinkSessionCleanup implements SelfMeasuring {
  private final FlinkSessionCluster cluster;
  private final Path jobJar;

  FlinkSessionCleanup(Path home, Path workDir) {
    Path build = home.resolve("connector-flink/target");
    this.jobJar = jobJar(build);
    this.cluster = FlinkSessionCluster.startOnFlinkLib(jobJar, build.resolve("flink-lib"), List.of(), workDir);
  }

  @Override
  public String name() {
    return "flink-session";
  }

  @Override
  public RunSample measure(Table table, long beforeVersion) {
    long start = System.nanoTime();
    cluster.flink(List.of("run", "-c", "dev.lancemaintenance.flink.FlinkCleanupJob", jobJar.toString(),
        // No age limit, as the SDK's policy: the version cutoff alone decides.
        "cleanup", table.hadoopUri(), "--older-than", "0s", "--before-version", Long.toString(beforeVersion)))
        .assertSucceeded();
    return new RunSample(System.nanoTime() - start, 0, -1, OptionalLong.empty(), 0, OptionalLong.empty(), false);
  }

  @Override
  public void close() {
    cluster.close();
  }

  private static Path jobJar(Path build) {
    try (Stream<Path> jars = Files.list(build)) {
      return jars.filter(p -> p.getFileName().toString().matches("lance-maintenance-flink-.*-job\\.jar"))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("flink-session needs the job jar in " + build
              + ": run mvn -B -ntp -DskipTests package"));
    } catch (IOException e) {
      throw new UncheckedIOException("flink-session needs " + build + ": run mvn -B -ntp -DskipTests package", e);
    }
  }
}
