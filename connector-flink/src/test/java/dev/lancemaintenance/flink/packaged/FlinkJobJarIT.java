package dev.lancemaintenance.flink.packaged;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job jar ({@code lance-maintenance-flink-<version>-job.jar}) as deployed: on a Flink session
 * cluster of separate JobManager and TaskManager processes whose classpath is Flink's own jars only
 * (no Hadoop, no Jackson, no protobuf, none of our modules), {@code flink run -c
 * dev.lancemaintenance.flink.FlinkCleanupJob <jar> cleanup ...} submitted through the REST endpoint,
 * and a SQL program whose catalog {@code 'type' = 'lance-maintenance'} is found in the jar, each
 * clean a twin of a table exactly as the official Lance cleanup cleans the other twin.
 */
class FlinkJobJarIT {
  private static final Path JOB_JAR = Path.of(System.getProperty("lance.flink.jobJar"));
  private static final Path FLINK_LIB = Path.of(System.getProperty("lance.flink.lib"));

  @TempDir static Path clusterHome;
  private static FlinkSessionCluster cluster;

  @BeforeAll
  static void startCluster() throws IOException {
    assertThat(JOB_JAR).isRegularFile();
    try (Stream<Path> jars = Files.list(FLINK_LIB)) {
      assertThat(jars.map(p -> p.getFileName().toString()))
          .as("Flink's lib/ has Flink's jars only: what the job jar needs must be inside it")
          .isNotEmpty()
          .noneMatch(name -> name.startsWith("hadoop-") || name.startsWith("jackson-") || name.startsWith("protobuf-")
              || name.startsWith("lance-") || name.startsWith("arrow-"));
    }
    cluster = FlinkSessionCluster.start(FLINK_LIB, clusterHome);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Appends, a delete, a compaction and an append: old data, deletion and manifest files to remove. */
  private static Path writeTable(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("ours.lance"));
    table.append(20);
    table.append(20);
    table.deleteWhere("id % 3 = 0");
    table.compact();
    table.append(5);
    return table.root();
  }

  /**
   * A freshly written table ({@code ours}) and its twin that the SDK's cleanup already cleaned with
   * {@code policy}; {@code finishedBefore} is the cluster's count before ours runs.
   */
  private record Twins(Path ours, Path sdk, List<String> before, ContractPolicy policy, int finishedBefore) {
    static Twins cleanedBySdk(Path dir) {
      Path ours = writeTable(dir);
      List<String> before = FileTimes.listFiles(ours);
      ContractPolicy policy = ContractPolicy.before("everything old", Instant.now());
      Path sdk = ours.resolveSibling("sdk.lance");
      TableTwins.copy(ours, sdk);
      OracleStats reference = LanceOracle.cleanup(sdk, policy.toOracle()).stats();
      assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();
      return new Twins(ours, sdk, before, policy, finishedJobs());
    }

    /** Ours ran on the cluster and left exactly the SDK's files, every version reading the same. */
    void assertOursCleanedLikeTheSdk() {
      assertThat(finishedJobs()).as("jobs the cluster finished").isGreaterThan(finishedBefore);
      assertThat(FileTimes.listFiles(ours)).as("files left by our run vs the SDK's").isEqualTo(FileTimes.listFiles(sdk));
      assertThat(FileTimes.listFiles(ours)).as("something was removed").hasSizeLessThan(before.size());
      assertThat(ReadBack.snapshot(ours)).isEqualTo(ReadBack.snapshot(sdk));
    }
  }

  private static int finishedJobs() {
    String overview = cluster.get("jobs/overview");
    return overview.split("\"state\":\"FINISHED\"", -1).length - 1;
  }

  @Test
  void flinkRunOfTheJobJarCleansLikeTheSdk(@TempDir Path dir) {
    Twins twins = Twins.cleanedBySdk(dir);

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
    Twins twins = Twins.cleanedBySdk(dir);

    FlinkSessionCluster.Run run = cluster.flink(List.of(
        "run", "-C", JOB_JAR.toUri().toString(), "-c", SqlOnCluster.class.getName(), programJar(dir).toString(),
        "CREATE CATALOG lance WITH ('type' = 'lance-maintenance')",
        "CALL lance.sys.cleanup(`table` => '" + twins.ours() + "', older_than => '" + twins.policy().beforeTimestamp() + "', dry_run => false)"))
        .assertSucceeded();

    assertThat(run.out()).as("the procedure's row of counters").contains("+I[");
    twins.assertOursCleanedLikeTheSdk();
  }

  /** A jar of {@link SqlOnCluster} alone: the SQL program a user would submit. */
  private static Path programJar(Path dir) throws IOException {
    String entry = SqlOnCluster.class.getName().replace('.', '/') + ".class";
    Path jar = dir.resolve("sql-program.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        InputStream in = SqlOnCluster.class.getClassLoader().getResourceAsStream(entry)) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
    return jar;
  }
}
