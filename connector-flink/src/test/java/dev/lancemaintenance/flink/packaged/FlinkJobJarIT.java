package dev.lancemaintenance.flink.packaged;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar of the line ({@code lance-maintenance-flink-<line>-<version>-job.jar}) as deployed:
 * on a Flink session cluster of separate JobManager and TaskManager processes whose classpath is
 * Flink's own jars only (no Hadoop, no Jackson, no protobuf, none of our modules), {@code flink run -c
 * dev.lancemaintenance.flink.FlinkCleanupJob <jar> cleanup ...} submitted through the REST endpoint,
 * and a SQL program whose catalog {@code 'type' = 'lance-maintenance'} is found in the jar, each
 * clean a twin of a table exactly as the official Lance cleanup cleans the other twin.
 */
class FlinkJobJarIT {
  private static final Path JOB_JAR = FlinkSessionCluster.JOB_JAR;

  @TempDir static Path clusterHome;
  private static FlinkSessionCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = FlinkSessionCluster.startOnFlinkLib(List.of(), clusterHome);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void flinkRunOfTheJobJarCleansLikeTheSdk(@TempDir Path dir) {
    CleanedTwins twins = CleanedTwins.cleanedBySdk(cluster, dir);

    FlinkSessionCluster.Run run = cluster.flink(List.of(
        "run", "-c", "dev.lancemaintenance.flink.FlinkCleanupJob", JOB_JAR.toString(),
        "cleanup", twins.ours().toString(),
        "--before-timestamp-millis", Long.toString(twins.policy().beforeTimestamp().toEpochMilli()),
        "--json")).assertSucceeded();

    assertThat(run.out()).contains("Job has been submitted with JobID").contains("\"old_versions\"");
    twins.assertOursCleanedLikeTheSdk();
  }

  /**
   * Flink SQL with the jar on the user classpath ({@code flink run -C}, as {@code ADD JAR} or
   * {@code pipeline.jars} would put it): {@code CREATE CATALOG ... 'type' = 'lance-maintenance'}
   * finds the factory through the jar's META-INF/services, and the procedure's job runs on the cluster.
   */
  @Test
  void sqlCatalogOfTheJobJarCleansLikeTheSdk(@TempDir Path dir) throws IOException {
    CleanedTwins twins = CleanedTwins.cleanedBySdk(cluster, dir);

    FlinkSessionCluster.Run run = cluster.flink(List.of(
        "run", "-C", JOB_JAR.toUri().toString(), "-c", SqlOnCluster.class.getName(), SqlOnCluster.jar(dir).toString(),
        "CREATE CATALOG lance WITH ('type' = 'lance-maintenance')",
        "CALL lance.sys.cleanup(`table` => '" + twins.ours() + "', older_than => '" + twins.policy().beforeTimestamp() + "', dry_run => false)"))
        .assertSucceeded();

    assertThat(run.out()).as("the procedure's row of counters").contains("+I[");
    twins.assertOursCleanedLikeTheSdk();
  }
}
