package dev.lancemaintenance.spark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.spark.SparkTestSession;
import dev.lancemaintenance.testing.CompactedHistory;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableTwins;
import dev.lancemaintenance.testing.cluster.SparkJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.cleanup} through Spark Connect, as on Databricks shared and serverless compute
 * and any Spark 4 {@code sc://} endpoint: a Connect server in its own JVM (the line's Spark jars,
 * the {@code spark-connect} server jar and our bundle, the {@code lance} catalog set as the README
 * says) and a client JVM with the JVM Connect client only. One server for the class; one client
 * runs three statements in order: a misspelt argument and a dry run on one twin of a table, then
 * the cleanup of another, compared with the official SDK's cleanup of a third. The dry run and the
 * cleanup are the SQL the PySpark module sends on a Connect session ({@link PySparkModule}).
 *
 * <p>Runs in the integration-test phase (failsafe), after {@code package} has built the bundle,
 * the Spark distribution's {@code jars/} and copied the Connect server and client jars.
 */
class SparkConnectClusterIT {
  private static final Path BUILD = Path.of(System.getProperty("lance.maintenance.build.dir", "target")).toAbsolutePath();
  /** The index of each statement in the client's arguments (the URL is 0). */
  private static final int MISSPELT = 1;
  private static final int DRY_RUN = 2;
  private static final int CLEANUP = 3;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path workDir;

  private static Set<String> pristineFiles;
  private static Path sdkTwin;
  private static OracleStats reference;
  private static String clientOutput;
  private static String serverLog;

  @BeforeAll
  static void callTheProcedureThroughSparkConnect() throws IOException {
    LanceTableFixture table = CompactedHistory.write(LanceTableFixture.create(workDir.resolve("pristine.lance")));
    Instant cutoff = Instant.now().plus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.SECONDS);
    long beforeVersion = table.latestVersion() - 1;
    pristineFiles = files(table.root());
    sdkTwin = workDir.resolve("sdk.lance");
    for (Path twin : List.of(sdkTwin, cleaned(), untouched())) {
      TableTwins.copy(table.root(), twin);
    }
    reference =
        LanceOracle.cleanup(sdkTwin, OraclePolicy.builder().beforeTimestamp(cutoff).beforeVersion(beforeVersion).build())
            .stats();
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();

    // The dry run and the cleanup as PySpark's module sends them on a Spark Connect session; the
    // misspelt argument as a user might type it.
    String dryRun = PySparkModule.recordedCalls(untouched().toString(), cutoff.toString(), beforeVersion).get(0);
    String cleanup = PySparkModule.recordedCalls(cleaned().toString(), cutoff.toString(), beforeVersion).get(1);
    List<String> statements = List.of(
        "CALL lance.cleanup(table => '" + untouched() + "', older_than => '" + cutoff + "', dryrun => true)",
        dryRun,
        cleanup);
    assertThat(dryRun).contains("dry_run => true");
    assertThat(cleanup).contains("dry_run => false");

    SparkJvm jvm = new SparkJvm(BUILD.resolve("spark-home"), workDir.resolve("processes"));
    Map<String, String> serverConf = new LinkedHashMap<>();
    serverConf.put(SparkTestSession.procedures().getKey(), SparkTestSession.procedures().getValue());
    // Every stage as Spark tasks, not the in-driver path small tables take.
    serverConf.put("spark.lance.cleanup.distributeAbove", "0");
    try (ConnectServer server = ConnectServer.start(jvm, connectJar("spark-connect_"), List.of(bundleJar()), serverConf)) {
      List<String> clientArgs = Stream.concat(Stream.of(server.url()), statements.stream()).toList();
      clientOutput = jvm.run("connect-client", clientClassPath(), Map.of(), ConnectClient.class.getName(), clientArgs);
      serverLog = Files.readString(server.log(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theCleanupRunsExactlyOnceAndItsRowReachesTheClient() {
    List<Map<String, String>> rows = rows(CLEANUP);
    assertThat(rows).as("result rows of the CALL").hasSize(1);
    assertThat(OracleStats.named(name -> Long.parseLong(rows.get(0).get(name)))).as("counters").isEqualTo(reference);
    assertThat(rows.get(0).get("failed_deletes")).isEqualTo("0");
    assertThat(files(cleaned())).as("files left, vs the SDK's twin").isEqualTo(files(sdkTwin));
    assertThat(ReadBack.snapshot(cleaned())).isEqualTo(ReadBack.snapshot(sdkTwin));

    // Exactly once (Spark 4.0 before SPARK-51273 executed a CALL twice over Connect): every run of
    // the cleanup, dry or not, on any engine, plans once, and logs it as one "lance cleanup <table>
    // [1/6 plan]" line on the driver, here the server, whose log holds all the session did. A second
    // execution would log a second line; and as the first removed everything, its row (the one the
    // client got, in that bug) would count nothing, which the counters above would catch too.
    assertThat(runsLogged(cleaned())).as("cleanup runs of %s in the server's log", cleaned()).isEqualTo(1);
  }

  @Test
  void aDryRunListsWhatTheSdkRemovedAndDeletesNothing() {
    Set<String> removedBySdk = new TreeSet<>(pristineFiles);
    removedBySdk.removeAll(files(sdkTwin));
    Set<String> listed = rows(DRY_RUN).stream().map(row -> row.get("path")).collect(Collectors.toCollection(TreeSet::new));
    assertThat(listed).as("files of the dry run").isEqualTo(removedBySdk);
    assertThat(files(untouched())).as("files after the dry run").isEqualTo(pristineFiles);
    assertThat(runsLogged(untouched())).as("runs of %s in the server's log", untouched()).isEqualTo(1);
  }

  @Test
  void aMisspeltArgumentIsAnErrorAtTheClientAndDeletesNothing() {
    assertThat(rows(MISSPELT)).as("rows of the misspelt CALL").isEmpty();
    assertThat(line(ConnectClient.ERROR + MISSPELT + " ")).contains("dryrun");
    assertThat(files(untouched())).isEqualTo(pristineFiles);
  }

  private static Path cleaned() {
    return workDir.resolve("cleaned.lance");
  }

  /** The twin of the misspelt CALL and the dry run. */
  private static Path untouched() {
    return workDir.resolve("untouched.lance");
  }

  /** The runs of the cleanup of {@code table} the server logged: the lines of their plan stage. */
  private static long runsLogged(Path table) {
    String planned = "lance cleanup file:" + table.toAbsolutePath() + " [" + CleanupStage.PLAN.label() + "]";
    return serverLog.lines().filter(l -> l.contains(planned)).count();
  }

  /**
   * The client's class path: the Connect client, then the Spark distribution without Spark's SQL
   * engine and the SQL API the client jar carries itself (spark-sql, spark-catalyst, spark-sql-api),
   * and the test classes for {@link ConnectClient}.
   */
  private static String clientClassPath() throws IOException {
    Pattern engine = Pattern.compile("spark-(sql|sql-api|catalyst)_.*\\.jar");
    try (Stream<Path> jars = Files.list(BUILD.resolve("spark-home").resolve("jars"))) {
      return Stream.concat(
              Stream.of(connectJar("spark-connect-client-jvm_")),
              Stream.concat(jars.filter(j -> !engine.matcher(j.getFileName().toString()).matches()).sorted(),
                  Stream.of(BUILD.resolve("test-classes"))))
          .map(Path::toString)
          .collect(Collectors.joining(":"));
    }
  }

  /** A jar the build copied into {@code target/spark-connect}, by its artifact's prefix. */
  private static Path connectJar(String prefix) {
    return jarIn(BUILD.resolve("spark-connect"), prefix + "[0-9.]+-[0-9.]+\\.jar");
  }

  private static Path bundleJar() {
    return jarIn(BUILD, "lance-maintenance-spark-[0-9.]+_[0-9.]+-.*\\.jar");
  }

  private static Path jarIn(Path dir, String pattern) {
    try (Stream<Path> jars = Files.list(dir)) {
      return jars.filter(p -> p.getFileName().toString().matches(pattern))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no " + pattern + " in " + dir + ": run mvn package first"));
    } catch (IOException e) {
      throw new UncheckedIOException("no " + dir + ": run mvn package first", e);
    }
  }

  private static List<Map<String, String>> rows(int statement) {
    String prefix = ConnectClient.ROW + statement + " ";
    return clientOutput.lines()
        .filter(l -> l.startsWith(prefix))
        .map(l -> Arrays.stream(l.substring(prefix.length()).split("\t"))
            .map(kv -> kv.split("=", 2))
            .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1], (a, b) -> b, LinkedHashMap::new)))
        .collect(Collectors.toList());
  }

  private static String line(String prefix) {
    return clientOutput.lines()
        .filter(l -> l.startsWith(prefix))
        .map(l -> l.substring(prefix.length()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line " + prefix + " in the client's output:\n" + clientOutput));
  }

  /** Files of the table, relative to its root, without the lease a run leaves. */
  private static Set<String> files(Path root) {
    return new TreeSet<>(FileTimes.listFiles(root));
  }
}
