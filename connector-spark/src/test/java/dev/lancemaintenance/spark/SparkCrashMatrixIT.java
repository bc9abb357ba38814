package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.local.CrashPoint;
import dev.lancemaintenance.local.CrashTable;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.TableTwins;
import java.io.BufferedReader;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash matrix on the Spark engine: a child JVM runs the cleanup as a distributed job in a
 * local-mode Spark session and is killed ({@code kill -9}) at each {@link CrashPoint}; every version
 * Lance keeps still reads back, and a rerun (Spark, in this JVM) takes the dead run's lease at once
 * and ends with Lance's files.
 */
class SparkCrashMatrixIT {
  @TempDir static Path workDir;
  private static CrashTable crashTable;
  private static SparkSession spark;
  private static final AtomicInteger copies = new AtomicInteger();

  @BeforeAll
  static void writeTableAndStartSpark() throws InterruptedException {
    crashTable = CrashTable.write(workDir);
    spark = SparkTestSession.start();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @ParameterizedTest(name = "spark crash point {index} of " + CrashPoint.COUNT + ": kill -9 {0}, then a rerun ends like Lance")
  @EnumSource(CrashPoint.class)
  void aSparkRunKilledAtACrashPointLeavesRetainedVersionsReadableAndTheRerunFinishesLikeLance(CrashPoint point)
      throws Exception {
    Path table = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(crashTable.pristine(), table);

    killedAt(point, table);

    assertThat(crashTable.retainedVersionsReadBack(table)).as("every version Lance keeps reads back").isTrue();
    if (point.compareTo(CrashPoint.BEFORE_THE_FIRST_DELETE) <= 0) {
      assertThat(CrashTable.files(table)).as("files after a crash before any delete").isEqualTo(crashTable.pristineFiles());
    }
    if (point.compareTo(CrashPoint.BEFORE_THE_MANIFESTS) <= 0) {
      assertThat(CrashTable.files(table)).as("expired manifests survive").containsAll(crashTable.expiredManifests());
    }

    new SparkCleanupAction(spark, TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()),
            Clock.systemUTC())
        .distributeAbove(0)
        .beforeTimestamp(crashTable.cutoff())
        .execute();

    assertThat(CrashTable.files(table)).as("files after the rerun vs Lance's cleanup").isEqualTo(crashTable.lanceFiles());
    assertThat(crashTable.retainedVersionsReadBack(table)).as("every version Lance keeps reads back").isTrue();
  }

  private static void killedAt(CrashPoint point, Path table) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    // Spark needs this JVM's --add-opens list.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> arg.startsWith("--add-opens") || arg.startsWith("--add-exports"))
        .forEach(command::add);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName(),
        table.toString(), Long.toString(crashTable.cutoff().toEpochMilli()), point.name()));
    Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals(CrashPoint.FreezingStorage.FROZEN)) {
        assertThat(line).as("the child's output before it froze").doesNotContain("finished without freezing");
      }
      assertThat(line).as("the child reached " + point).isEqualTo(CrashPoint.FreezingStorage.FROZEN);
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(1, TimeUnit.MINUTES)).as("the child died").isTrue();
    }
  }

  /** The child JVM: {@code <table> <cutoff epoch ms> <crash point>}, a Spark job until it is killed. */
  static final class Child {
    public static void main(String[] args) {
      CrashPoint point = CrashPoint.valueOf(args[2]);
      SparkSession spark = SparkTestSession.start("local[2]");
      StorageConf conf = StorageConf.defaults();
      TableStorageFactory freezing = location -> new CrashPoint.FreezingStorage(new HadoopTableStorage(location, conf), point);
      new SparkCleanupAction(spark, TableLocation.of(args[0]), freezing, Clock.systemUTC())
          .distributeAbove(0)
          .beforeTimestamp(Instant.ofEpochMilli(Long.parseLong(args[1])))
          .execute();
      System.out.println("finished without freezing");
      spark.stop();
    }
  }
}
