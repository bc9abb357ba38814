package dev.lancemaintenance.flink.packaged;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.cluster.FlinkSessionCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar as the SQL catalog from Flink's {@code lib/}, as a platform installs a catalog: on a
 * session cluster whose JobManager, TaskManager and client all have the job jar on their classpath
 * beside Flink's own jars, a SQL program submitted alone (no {@code -C}, no {@code ADD JAR}) runs
 * {@code CREATE CATALOG lance WITH ('type' = 'lance-maintenance')} and {@code CALL
 * lance.sys.cleanup(...)}, and the procedure's job cleans the table as the SDK does ({@code
 * distribute_above => 0}: the table is small enough to be cleaned in the client otherwise). One line runs it
 * (the factory and its services file are the same on both); FlinkJobJarIT runs the jar passed with
 * the job on both.
 */
class FlinkCatalogInLibIT {
  @TempDir static Path clusterHome;
  private static FlinkSessionCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = PackagedFlink.startCluster(List.of(PackagedFlink.JOB_JAR), clusterHome);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void createCatalogFindsTheJobJarInLibAndItsCallCleansLikeTheSdk(@TempDir Path dir) throws IOException {
    CleanedTwins twins = CleanedTwins.cleanedBySdk(cluster, dir);

    FlinkSessionCluster.Run run = cluster.flink(List.of(
        "run", "-c", SqlOnCluster.class.getName(), SqlOnCluster.jar(dir).toString(),
        "CREATE CATALOG lance WITH ('type' = 'lance-maintenance')",
        "CALL lance.sys.cleanup(`table` => '" + twins.ours() + "', older_than => '" + twins.policy().beforeTimestamp() + "', dry_run => false,"
            + " distribute_above => 0)"))
        .assertSucceeded();

    assertThat(run.out()).as("the procedure's row of counters").contains("+I[");
    twins.assertOursCleanedLikeTheSdk();
  }
}
