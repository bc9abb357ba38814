package dev.lancemaintenance.flink.packaged;

import dev.lancemaintenance.testing.cluster.FlinkSessionCluster;
import java.nio.file.Path;
import java.util.List;

/** What this module's {@code package} built for the session-cluster tests, as the pom passes it in. */
final class PackagedFlink {
  /** The job jar of the module's Flink line. */
  static final Path JOB_JAR = Path.of(System.getProperty("lance.flink.jobJar"));

  /** Flink's own jars, as a Flink distribution's {@code lib/} has them. */
  static final Path FLINK_LIB = Path.of(System.getProperty("lance.flink.lib"));

  private PackagedFlink() {}

  /** A session cluster on {@link #FLINK_LIB} and {@code extraLib} (jars a user dropped into Flink's lib/). */
  static FlinkSessionCluster startCluster(List<Path> extraLib, Path home) {
    return FlinkSessionCluster.startOnFlinkLib(JOB_JAR, FLINK_LIB, extraLib, home);
  }
}
