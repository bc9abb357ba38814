package dev.lancemaintenance.distribution.packaged;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableSnapshot;
import dev.lancemaintenance.testing.stores.CleanupCommandLine;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import dev.lancemaintenance.testing.stores.S3Tables;
import dev.lancemaintenance.testing.stores.TableCopies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lance-maintenance-<version>-bin.tar.gz}, unpacked into an empty directory, runs on its own
 * (no checkout, no Maven): it inspects a local table, and cleans S3 tables through {@code s3a://}
 * and {@code s3://} (mapped to S3A by the command line) exactly as the official Lance cleanup does,
 * against an S3 server on 127.0.0.1. The checkout's {@code bin/lance-maintenance} still runs too.
 */
class DistributionIT {
  private static final String BUCKET = "cli-tables";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path unpacked;
  private static PackagedCli distribution;
  private static S3ProxyServer s3;

  @BeforeAll
  static void unpackAndStartS3() {
    distribution = PackagedCli.unpackDistribution(unpacked);
    s3 = S3ProxyServer.start();
    s3.createBucket(BUCKET);
  }

  @AfterAll
  static void stopS3() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void distributionIsBinAndLibOnly() throws IOException {
    try (var entries = Files.list(distribution.home())) {
      assertThat(entries.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("bin", "lib", "README.md");
    }
    assertThat(distribution.home().resolve("lib").resolve("hadoop-aws-3.4.2.jar")).isRegularFile();
  }

  @Test
  void inspectsALocalTableFromTheUnpackedDistribution(@TempDir Path dir) throws IOException {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(10);
    table.append(10);
    table.deleteWhere("id < 3");

    JsonNode inspected = json(distribution.run(List.of("inspect", table.root().toString(), "--json")).assertSucceeded());

    List<Long> versions = new ArrayList<>();
    inspected.get("versions").forEach(v -> versions.add(v.get("version").asLong()));
    assertThat(versions).isEqualTo(table.versions());
  }

  /**
   * Class-data sharing in {@code bin/lance-maintenance}: the first maintenance command records an
   * archive (and its JSON on stdout stays one clean object), the next maps it and answers the same
   * without recording again.
   */
  @Test
  void theFirstRunRecordsAClassDataArchiveThatTheNextRunMaps(@TempDir Path dir) throws IOException {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    Path cache = dir.resolve("cache");
    Map<String, String> env = Map.of("LANCE_MAINTENANCE_CACHE", cache.toString());
    List<String> inspect = List.of("inspect", table.root().toString(), "--json");

    JsonNode recorded = json(distribution.run(inspect, env).assertSucceeded());
    List<String> archives = fileNames(cache);
    JsonNode mapped = json(distribution.run(inspect, env).assertSucceeded());

    assertThat(archives).as("one archive, no half-written one left").singleElement().asString()
        .startsWith("cds-").endsWith(".jsa");
    assertThat(mapped).as("the run that mapped the archive").isEqualTo(recorded);
    assertThat(fileNames(cache)).as("mapped, not recorded again").isEqualTo(archives);
    // With class-data sharing off the script runs as before.
    distribution.run(inspect, Map.of("LANCE_MAINTENANCE_CACHE", cache.toString(), "LANCE_MAINTENANCE_CDS", "off"))
        .assertSucceeded();
  }

  private static List<String> fileNames(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * The command line configures its logger before any logger exists: a stage line reads
   * "HH:mm:ss INFO lance cleanup ...", and the README's demo (the SDK, Arrow, Spark and Hadoop in one
   * JVM) prints no INFO line on stderr (off a terminal the engine's own are off too). Until stop 40 a logger made while the usage text was built came
   * first: every line printed as "[main] INFO class - ...", some 180 lines of the libraries' INFO
   * with them.
   */
  @Test
  void stageLinesReadAsTimeLevelAndMessageAndTheDemoPrintsNoLibraryLogs(@TempDir Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    table.append(5);
    // On a terminal the engine's stage lines are INFO; a test has no terminal, so it asks for them.
    Map<String, String> stageLines = Map.of("LANCE_MAINTENANCE_JAVA_OPTS", "-Dorg.slf4j.simpleLogger.log.dev.lancemaintenance=info");

    PackagedCli.Run dryRun = distribution.run(
        List.of("cleanup", table.root().toString(), "--older-than", "0s", "--dry-run", "--no-progress"), stageLines)
        .assertSucceeded();
    PackagedCli.Run demo = distribution.run(List.of("demo", dir.resolve("demo").resolve("demo.lance").toString()))
        .assertSucceeded();

    assertThat(dryRun.err().lines().filter(line -> line.contains("[1/6 plan]"))).as(dryRun.err()).singleElement()
        .asString().matches("\\d\\d:\\d\\d:\\d\\d INFO lance cleanup .*");
    assertThat(demo.out()).contains("reclaimed");
    assertThat(demo.err().lines().filter(line -> line.contains("INFO"))).as(demo.err()).isEmpty();
  }

  /** The README's first command builds this layout; {@code bin/} of the checkout must keep running it. */
  @Test
  void checkoutLauncherStillRuns(@TempDir Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);

    JsonNode inspected =
        json(PackagedCli.checkout().run(List.of("inspect", table.root().toString(), "--json")).assertSucceeded());

    assertThat(inspected.get("latest_version").asLong()).isEqualTo(table.latestVersion());
  }

  /**
   * Twin tables, as in the S3 tests of the engines (their data files have random names, so names are
   * compared within one table): on {@code sdk.lance} the SDK's cleanup deletes exactly what our
   * {@code s3a://} dry run lists, with its counters; on {@code ours.lance} our real cleanup through
   * {@code s3://} deletes exactly what the {@code s3a://} dry run lists, and the twins end alike.
   * The second table's credentials come from the environment, through S3A's default provider chain.
   */
  @Test
  void cleansS3TablesThroughS3aAndS3LikeTheSdk() {
    LanceTableFixture sdkTable = S3Tables.writeCompactedHistory(s3, BUCKET, "sdk.lance");
    LanceTableFixture ourTable = S3Tables.writeCompactedHistory(s3, BUCKET, "ours.lance");
    ContractPolicy policy = S3Tables.oldHistory(sdkTable);

    // (1) s3a, credentials in --conf: the SDK deletes exactly what our dry run lists.
    SortedMap<String, Long> sdkBefore = objects("sdk.lance");
    JsonNode planned = cleanup("s3a", "sdk.lance", policy, true, s3.hadoopSettings(), Map.of());
    OracleStats reference =
        LanceOracle.cleanup(sdkTable.uri(), sdkTable.storageOptions(), policy.toOracle()).stats();
    SortedMap<String, Long> sdkAfter = objects("sdk.lance");
    assertThat(S3Tables.removed(sdkBefore, sdkAfter)).as("objects the SDK deleted vs our dry run").isEqualTo(CleanupCommandLine.files(planned));
    assertThat(CleanupCommandLine.stats(planned)).as("counters").isEqualTo(reference);
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();

    // (2) s3://, credentials from the environment: our real run deletes what the s3a dry run lists.
    Map<String, String> withoutKeys = new LinkedHashMap<>(s3.hadoopSettings());
    withoutKeys.remove("fs.s3a.access.key");
    withoutKeys.remove("fs.s3a.secret.key");
    withoutKeys.remove("fs.s3a.aws.credentials.provider");
    Map<String, String> env =
        Map.of("AWS_ACCESS_KEY_ID", S3ProxyServer.ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", S3ProxyServer.SECRET_KEY);
    SortedMap<String, Long> ourBefore = objects("ours.lance");
    Set<String> ourPlanned = CleanupCommandLine.files(cleanup("s3a", "ours.lance", policy, true, withoutKeys, env));
    JsonNode ours = cleanup("s3", "ours.lance", policy, false, withoutKeys, env);
    SortedMap<String, Long> ourAfter = objects("ours.lance");
    assertThat(ours.get("table").asText()).startsWith("s3://");
    assertThat(S3Tables.removed(ourBefore, ourAfter)).as("objects our s3:// cleanup deleted").isEqualTo(ourPlanned);
    assertThat(ours.get("failed_deletes").asLong()).isZero();

    // (3) The twins end alike: counters but bytes, objects per directory, every version readable.
    assertThat(CleanupCommandLine.stats(ours)).usingRecursiveComparison().ignoringFields("bytesRemoved").isEqualTo(reference);
    assertThat(S3Tables.countsByTopDirectory(ourAfter.keySet())).isEqualTo(S3Tables.countsByTopDirectory(sdkAfter.keySet()));
    TableSnapshot ourVersions = ReadBack.snapshot(ourTable.uri(), ourTable.storageOptions());
    assertThat(ourVersions.unreadable()).as("versions that no longer read").isEmpty();
    assertThat(ourVersions).isEqualTo(ReadBack.snapshot(sdkTable.uri(), sdkTable.storageOptions()));
  }

  private static JsonNode cleanup(
      String scheme, String key, ContractPolicy policy, boolean dryRun, Map<String, String> conf, Map<String, String> env) {
    PackagedCli.Run run = distribution.run(
        CleanupCommandLine.args(scheme + "://" + BUCKET + "/" + key, policy, dryRun, conf), env).assertSucceeded();
    assertThat(run.out() + run.err()).as("output names no secret").doesNotContain(S3ProxyServer.SECRET_KEY);
    return json(run);
  }

  private static SortedMap<String, Long> objects(String key) {
    Configuration conf = s3.storageConf().toConfiguration();
    return TableCopies.listFiles(S3ProxyServer.s3aUri(BUCKET, key), conf);
  }

  private static JsonNode json(PackagedCli.Run run) {
    try {
      return JSON.readTree(run.out());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + run.out() + "\nstderr:\n" + run.err(), e);
    }
  }
}
