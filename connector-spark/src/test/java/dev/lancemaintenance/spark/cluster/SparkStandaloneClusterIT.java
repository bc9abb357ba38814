package dev.lancemaintenance.spark.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.CompactedHistory;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableSnapshot;
import dev.lancemaintenance.testing.TableTwins;
import dev.lancemaintenance.testing.cluster.StandaloneCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cleanup as deployed: a Spark standalone Master and Worker in their own JVMs, executors in
 * theirs, and a driver JVM whose class path is the Spark distribution plus our bundle jar (shipped
 * to the executors with {@code spark.jars}, as {@code spark-submit --jars} does). Through {@code
 * CALL lance.cleanup} and through the notebook API, every stage runs as Spark jobs on the
 * executors, and the table ends file for file where the official cleanup leaves its twin.
 *
 * <p>Runs in the integration-test phase (failsafe), after the bundle jar and the distribution's
 * {@code jars/} are built by {@code package}.
 */
class SparkStandaloneClusterIT {
  private static final Path BUILD = Path.of(System.getProperty("lance.maintenance.build.dir", "target"));
  private static final List<String> MODES = List.of("sql", "notebook");

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path workDir;

  private static Path sdkTwin;
  private static OracleStats reference;
  private static String driverOutput;
  private static Path executorDirs;

  @BeforeAll
  static void cleanTwinsWithTheSdkAndOnTheCluster() {
    LanceTableFixture table = CompactedHistory.write(LanceTableFixture.create(workDir.resolve("pristine.lance")));
    // Whole seconds: the procedure takes the cutoff as a SQL TIMESTAMP literal.
    Instant cutoff = Instant.now().plus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.SECONDS);
    long beforeVersion = table.latestVersion() - 1;
    sdkTwin = workDir.resolve("sdk.lance");
    TableTwins.copy(table.root(), sdkTwin);
    MODES.forEach(mode -> TableTwins.copy(table.root(), ours(mode)));

    reference =
        LanceOracle.cleanup(sdkTwin, OraclePolicy.builder().beforeTimestamp(cutoff).beforeVersion(beforeVersion).build())
            .stats();
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();

    Path bundle = StandaloneCluster.bundleJar(BUILD);
    Map<String, String> conf = StandaloneCluster.applicationConf(bundle);
    try (StandaloneCluster cluster = StandaloneCluster.start(BUILD.resolve("spark-home"), workDir.resolve("cluster"), 2)) {
      driverOutput =
          cluster.runDriver(
              "driver",
              cluster.sparkClassPath() + ":" + bundle + ":" + driverClasses(),
              conf,
              ClusterDriver.class.getName(),
              List.of(cluster.masterUrl(), cutoff.toString(), Long.toString(beforeVersion),
                  ours("sql").toString(), ours("notebook").toString()));
      executorDirs = cluster.executorDirs();
    }
    assertThat(bundleInEveryExecutorDirectory(bundle)).as("the bundle shipped to the executors").isTrue();
    Set<String> executors = Set.of(line(ClusterDriver.EXECUTORS).split(","));
    assertThat(executors).as("executors that ran tasks").isNotEmpty().doesNotContain("driver", "");
  }

  @ParameterizedTest(name = "{0} on a standalone cluster cleans like the SDK")
  @ValueSource(strings = {"sql", "notebook"})
  void cleansOnSeparateExecutorProcessesLikeTheSdk(String mode) {
    Map<String, Long> counters = counters(line(ClusterDriver.RESULT + mode + " "));
    assertThat(OracleStats.named(counters::get)).as("counters").isEqualTo(reference);
    assertThat(counters.get("failed_deletes")).as("failed deletes").isZero();
    assertThat(files(ours(mode))).as("files left by %s vs the SDK's twin", mode).isEqualTo(files(sdkTwin));
    TableSnapshot after = ReadBack.snapshot(ours(mode));
    assertThat(after.unreadable()).as("versions that no longer read").isEmpty();
    assertThat(after).isEqualTo(ReadBack.snapshot(sdkTwin));
  }

  private static Path ours(String mode) {
    return workDir.resolve(mode + ".lance");
  }

  /** Where {@link ClusterDriver} was compiled: the driver's only class that is not Spark's or the bundle's. */
  private static String driverClasses() {
    return BUILD.resolve("test-classes").toAbsolutePath().toString();
  }

  /** Each executor directory ({@code app-*}/{@code <id>}) holds the bundle the driver shipped. */
  private static boolean bundleInEveryExecutorDirectory(Path bundle) {
    try (Stream<Path> apps = Files.list(executorDirs)) {
      List<Path> dirs = apps.flatMap(app -> {
        try {
          return Files.list(app).toList().stream();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).toList();
      return !dirs.isEmpty() && dirs.stream().allMatch(dir -> Files.exists(dir.resolve(bundle.getFileName())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String line(String prefix) {
    return driverOutput.lines()
        .filter(l -> l.startsWith(prefix))
        .map(l -> l.substring(prefix.length()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line " + prefix + " in driver output:\n" + driverOutput));
  }

  private static Map<String, Long> counters(String line) {
    return Arrays.stream(line.split(","))
        .map(kv -> kv.split("=", 2))
        .collect(Collectors.toMap(kv -> kv[0], kv -> Long.parseLong(kv[1]), (a, b) -> b, LinkedHashMap::new));
  }

  /** Files of the table, relative to its root, without the lease a run leaves. */
  private static Set<String> files(Path root) {
    return new TreeSet<>(FileTimes.listFiles(root));
  }

}
