package dev.lancemaintenance.flink.packaged;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableSnapshot;
import dev.lancemaintenance.testing.cluster.FlinkSessionCluster;
import dev.lancemaintenance.testing.stores.CleanupCommandLine;
import dev.lancemaintenance.testing.stores.S3Bucket;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import dev.lancemaintenance.testing.stores.S3Tables;
import dev.lancemaintenance.testing.stores.TableCopies;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar of the line ({@code lance-maintenance-flink-<line>-<version>-job.jar}) as deployed:
 * on a Flink session cluster of separate JobManager and TaskManager processes whose classpath is
 * Flink's own jars only (no Hadoop, no Jackson, no protobuf, none of our modules), {@code flink run -c
 * dev.lancemaintenance.flink.FlinkCleanupJob <jar> cleanup ...} submitted through the REST endpoint,
 * and a SQL program whose catalog {@code 'type' = 'lance-maintenance'} is found in the jar, each
 * clean a twin of a table exactly as the official Lance cleanup cleans the other twin; on an S3
 * server on 127.0.0.1, {@code flink run} cleans {@code s3a://} tables with nothing but the job jar.
 */
class FlinkJobJarIT {
  private static final Path JOB_JAR = PackagedFlink.JOB_JAR;
  private static final String BUCKET = "flink-job-jar";
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);

  @TempDir static Path clusterHome;
  private static FlinkSessionCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = PackagedFlink.startCluster(List.of(), clusterHome);
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
   * finds the factory through the jar's META-INF/services, and the procedure's job runs on the cluster
 * ({@code distribute_above => 0}: the table is small enough to be cleaned in the client otherwise).
   */
  @Test
  void sqlCatalogOfTheJobJarCleansLikeTheSdk(@TempDir Path dir) throws IOException {
    CleanedTwins twins = CleanedTwins.cleanedBySdk(cluster, dir);

    FlinkSessionCluster.Run run = cluster.flink(List.of(
        "run", "-C", JOB_JAR.toUri().toString(), "-c", SqlOnCluster.class.getName(), SqlOnCluster.jar(dir).toString(),
        "CREATE CATALOG lance WITH ('type' = 'lance-maintenance')",
        "CALL lance.sys.cleanup(`table` => '" + twins.ours() + "', older_than => '" + twins.policy().beforeTimestamp() + "', dry_run => false,"
            + " distribute_above => 0)"))
        .assertSucceeded();

    assertThat(run.out()).as("the procedure's row of counters").contains("+I[");
    twins.assertOursCleanedLikeTheSdk();
  }

  /**
   * {@code s3a://} from the job jar alone: the cluster has no Hadoop (no {@code HADOOP_CLASSPATH},
   * no s3 plugin), so S3A and the AWS SDK modules it loads come from the jar, and the S3 settings
   * from {@code --conf}. As in the engines' S3 tests, the SDK writes two tables by one recipe into
   * the bucket (object mtimes are the server's clock, as on S3, and no copy could keep them):
   * on {@code sdk.lance} the SDK's cleanup deletes exactly what our dry run on the cluster lists,
   * with its counters; on {@code ours.lance} our real run on the cluster ends as the SDK's did.
   */
  @Test
  void flinkRunOfTheJobJarCleansS3aTablesLikeTheSdk() {
    LanceTableFixture sdkTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "sdk.lance");
    LanceTableFixture ourTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "ours.lance");
    ContractPolicy policy = S3Tables.oldHistory(sdkTable);

    SortedMap<String, Long> sdkBefore = objects("sdk.lance");
    JsonNode planned = flinkRunCleanup("sdk.lance", policy, true);
    OracleStats reference = LanceOracle.cleanup(sdkTable.uri(), sdkTable.storageOptions(), policy.toOracle()).stats();
    SortedMap<String, Long> sdkAfter = objects("sdk.lance");
    assertThat(S3Tables.removed(sdkBefore, sdkAfter))
        .as("objects the SDK deleted vs our dry run on the cluster")
        .isEqualTo(CleanupCommandLine.files(planned));
    assertThat(CleanupCommandLine.stats(planned)).as("counters").isEqualTo(reference);
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();

    SortedMap<String, Long> ourBefore = objects("ours.lance");
    JsonNode ours = flinkRunCleanup("ours.lance", policy, false);
    SortedMap<String, Long> ourAfter = objects("ours.lance");
    assertThat(ours.get("failed_deletes").asLong()).isZero();
    assertThat(CleanupCommandLine.stats(ours)).usingRecursiveComparison().ignoringFields("bytesRemoved").isEqualTo(reference);
    assertThat(S3Tables.countsByTopDirectory(S3Tables.removed(ourBefore, ourAfter)))
        .as("objects our run deleted, per directory, vs the SDK's")
        .isEqualTo(S3Tables.countsByTopDirectory(S3Tables.removed(sdkBefore, sdkAfter)));
    TableSnapshot ourVersions = ReadBack.snapshot(ourTable.uri(), ourTable.storageOptions());
    assertThat(ourVersions.unreadable()).as("versions that no longer read").isEmpty();
    assertThat(ourVersions).isEqualTo(ReadBack.snapshot(sdkTable.uri(), sdkTable.storageOptions()));
  }

  private static JsonNode flinkRunCleanup(String key, ContractPolicy policy, boolean dryRun) {
    List<String> args = new ArrayList<>(List.of("run", "-c", "dev.lancemaintenance.flink.FlinkCleanupJob", JOB_JAR.toString()));
    args.addAll(CleanupCommandLine.args(S3.s3aUri(key), policy, dryRun, S3.hadoopSettings()));
    FlinkSessionCluster.Run run = cluster.flink(args).assertSucceeded();
    assertThat(run.out() + run.err()).as("output names no secret").doesNotContain(S3ProxyServer.SECRET_KEY);
    return CleanupCommandLine.result(run.out());
  }

  private static SortedMap<String, Long> objects(String key) {
    return TableCopies.listFiles(S3.s3aUri(key), S3.storageConf().toConfiguration());
  }
}
