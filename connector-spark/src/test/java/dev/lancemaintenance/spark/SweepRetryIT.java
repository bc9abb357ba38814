package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.Scenario;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep task that dies after deleting part of its batch is retried by Spark, and the run still
 * removes exactly what the local engine removes and reports the same counters: nothing lost, nothing
 * counted twice.
 */
class SweepRetryIT {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass("local[2,3]");

  @TempDir Path dir;

  @Test
  void retriedSweepTasksCountEachFileOnce() throws IOException {
    Scenario scenario = ConformanceScenarios.deletes(dir);
    Path table = scenario.table().root();
    Path pristine = dir.resolve("pristine");
    TableTwins.copy(table, pristine);
    Instant cutoff = Instant.now();

    CleanupResult expected =
        new LocalCleanupAction(TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
            .beforeTimestamp(cutoff)
            .execute();
    List<String> expectedFiles = LanceTableFixture.open(table).listFiles();

    deleteRecursively(table);
    TableTwins.copy(pristine, table);
    Path markers = Files.createDirectories(dir.resolve("markers"));
    CleanupResult retried =
        new SparkCleanupAction(
                SPARK.session(), TableLocation.of(table.toString()), FailOnceStorage.factory(markers), Clock.systemUTC())
            .partitions(3)
            .beforeTimestamp(cutoff)
            .execute();

    try (Stream<Path> failed = Files.list(markers)) {
      assertThat(failed.count()).as("sweep tasks that failed once and were retried").isGreaterThan(1);
    }
    assertThat(expected.counters().deletionFilesRemoved()).as("the scenario removes deletion files").isPositive();
    assertThat(retried.counters()).as("counters after retries").isEqualTo(expected.counters());
    assertThat(LanceTableFixture.open(table).listFiles()).as("files left").containsExactlyInAnyOrderElementsOf(expectedFiles);
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
