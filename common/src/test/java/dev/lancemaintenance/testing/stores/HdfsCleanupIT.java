package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.Scenario;
import dev.lancemaintenance.testing.TableSnapshot;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our cleanup on a real HDFS gives what the official Lance cleanup gives on local disk.
 *
 * <p>The Lance SDK cannot write to {@code hdfs://} (it has no HDFS object store), so the table is
 * written by the SDK on local disk (a mix of appends, deletes, updates, index builds, compactions
 * and overwrites) and moved into HDFS file by file with each file's mtime kept. Each case cleans a
 * fresh HDFS copy with our local engine through {@link HadoopTableStorage} and a fresh local twin
 * with the SDK, then compares the remaining files and the counters, and reads every remaining
 * version of the HDFS table back through the SDK (after copying it back to local disk).
 */
class HdfsCleanupIT {
  @TempDir static Path work;
  /** Package-private: compat/hadoop-3.3 adds its HDFS delete checks on the same cluster. */
  static MiniHdfs hdfs;
  private static Scenario scenario;
  private static final AtomicInteger CASES = new AtomicInteger();

  @BeforeAll
  static void startHdfsAndWriteTable() {
    hdfs = MiniHdfs.start(work.resolve("hdfs"));
    scenario = ConformanceScenarios.randomMix(work.resolve("tables"), 7);
  }

  @AfterAll
  static void stopHdfs() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  static Stream<ContractPolicy> policies() {
    String firstCutoff = scenario.instants().firstKey();
    // Two cases keep the class near 30 s on a 2-core CI machine: a cutoff mid-history, and
    // everything but the latest version (the full policy matrix runs locally in the contract suite).
    return Stream.of(
        ContractPolicy.before(firstCutoff, scenario.instant(firstCutoff)),
        ContractPolicy.before("everything old", Instant.now().plus(Duration.ofMinutes(1))));
  }

  @Test
  void keepsEveryFileAndModificationTimeWhenCopyingIntoHdfs() {
    String uri = hdfs.uri("/copies/table-" + CASES.incrementAndGet());
    Path local = scenario.table().root();

    TableCopies.upload(local, uri, hdfs.configuration());

    Map<String, Long> expected = new TreeMap<>();
    for (String file : FileTimes.listFiles(local)) {
      expected.put(file, FileTimes.modificationTime(local.resolve(file)).toEpochMilli());
    }
    assertThat(TableCopies.listFiles(uri, hdfs.configuration())).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void leavesTheSameFilesAsLanceCleanupOfTheLocalTwin(ContractPolicy policy) {
    int id = CASES.incrementAndGet();
    Path twin = work.resolve("sdk-twin-" + id);
    TableTwins.copy(scenario.table().root(), twin);
    OracleStats reference = LanceOracle.cleanup(twin, policy.toOracle()).stats();

    String uri = hdfs.uri("/tables/table-" + id);
    TableCopies.upload(scenario.table().root(), uri, hdfs.configuration());
    CleanupResult ours =
        policy.applyTo(new LocalCleanupAction(
                TableLocation.of(uri), HadoopTableStorage.factory(hdfs.storageConf()), Clock.systemUTC()))
            .execute();

    assertThat(new TreeSet<>(TableCopies.listFiles(uri, hdfs.configuration()).keySet()))
        .as("files left on HDFS by our cleanup vs files left locally by Lance's")
        .isEqualTo(new TreeSet<>(FileTimes.listFiles(twin)));
    assertThat(CleanupContractTest.countersOf(ours)).as("counters").isEqualTo(reference);
    assertThat(ours.counters().failedDeletes()).isZero();

    Path readBack = work.resolve("read-back-" + id);
    TableCopies.download(uri, hdfs.configuration(), readBack);
    TableSnapshot after = ReadBack.snapshot(readBack);
    assertThat(after.unreadable()).as("versions that no longer read").isEmpty();
    assertThat(after).as("every remaining version, as the SDK's twin reads").isEqualTo(ReadBack.snapshot(twin));
    assertThat(List.copyOf(after.entries().keySet())).isNotEmpty();
  }
}
