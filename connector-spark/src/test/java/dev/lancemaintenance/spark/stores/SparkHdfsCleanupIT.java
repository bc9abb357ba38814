package dev.lancemaintenance.spark.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.Scenario;
import dev.lancemaintenance.testing.TableSnapshot;
import dev.lancemaintenance.testing.TableTwins;
import dev.lancemaintenance.testing.stores.MiniHdfs;
import dev.lancemaintenance.testing.stores.TableCopies;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark engine on a real HDFS gives what the official Lance cleanup gives on local disk, through
 * the notebook API and through {@code CALL lance.cleanup}.
 *
 * <p>As in common's {@code HdfsCleanupIT}: the SDK cannot write to {@code hdfs://}, so the table is
 * written locally (appends and deletes) and copied into HDFS with every mtime kept. Each case
 * cleans a fresh HDFS copy with Spark {@code local[2]} and a fresh local twin with the SDK, compares
 * the remaining files and counters, and reads every remaining version of the HDFS table back
 * through the SDK.
 */
class SparkHdfsCleanupIT {
  @TempDir static Path work;
  private static MiniHdfs hdfs;
  private static Scenario scenario;
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();
  private static final AtomicInteger CASES = new AtomicInteger();

  @BeforeAll
  static void start() {
    hdfs = MiniHdfs.start(work.resolve("hdfs"));
    // Appends and deletes (data and deletion files): the scenario common's HdfsCleanupIT uses (a
    // random mix with indexes) takes twice as long to write and read back; the file kinds do not
    // change what HDFS does, and the Spark engine meets the whole contract locally.
    scenario = ConformanceScenarios.deletes(work.resolve("tables"));
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void notebookApiLeavesTheSameFilesAsLanceCleanupOfTheLocalTwin() {
    ContractPolicy policy = ContractPolicy.before("after-v4", scenario.instant("after-v4"));
    Case run = newCase(policy);

    CleanupResult ours =
        policy.applyTo(LanceMaintenance.of(SPARK.session()).cleanup(run.uri(), hdfs.hadoopSettings())).execute();

    assertThat(ours.counters().failedDeletes()).isZero();
    run.assertEndsLikeTheTwin(CleanupContractTest.countersOf(ours));
  }

  @Test
  void callProcedureLeavesTheSameFilesAsLanceCleanupOfTheLocalTwin() {
    Instant cutoff = Instant.now().plus(Duration.ofMinutes(1));
    Case run = newCase(ContractPolicy.before("everything old", cutoff));

    Row row = CounterRows.single(SPARK.session(),
        "CALL lance.cleanup(table => " + CounterRows.quote(run.uri())
            + ", older_than => " + CounterRows.quote(cutoff.toString())
            + ", options => " + CounterRows.mapLiteral(hdfs.hadoopSettings()) + ")");

    assertThat(row.<Long>getAs("failed_deletes")).isZero();
    run.assertEndsLikeTheTwin(CounterRows.asOracleStats(row));
  }

  /** A fresh HDFS copy of the scenario's table, and a local twin the SDK already cleaned. */
  private static Case newCase(ContractPolicy policy) {
    int id = CASES.incrementAndGet();
    Path twin = work.resolve("sdk-twin-" + id);
    TableTwins.copy(scenario.table().root(), twin);
    OracleStats reference = LanceOracle.cleanup(twin, policy.toOracle()).stats();
    String uri = hdfs.uri("/tables/table-" + id);
    TableCopies.upload(scenario.table().root(), uri, hdfs.configuration());
    return new Case(id, uri, twin, reference);
  }

  private record Case(int id, String uri, Path twin, OracleStats reference) {
    void assertEndsLikeTheTwin(OracleStats ours) {
      assertThat(new TreeSet<>(TableCopies.listFiles(uri, hdfs.configuration()).keySet()))
          .as("files left on HDFS by the Spark engine vs files left locally by Lance's cleanup")
          .isEqualTo(new TreeSet<>(FileTimes.listFiles(twin)));
      assertThat(ours).as("counters").isEqualTo(reference);

      Path readBack = work.resolve("read-back-" + id);
      TableCopies.download(uri, hdfs.configuration(), readBack);
      TableSnapshot after = ReadBack.snapshot(readBack);
      assertThat(after.unreadable()).as("versions that no longer read").isEmpty();
      assertThat(after.entries()).as("remaining versions").isNotEmpty();
      assertThat(after).as("every remaining version, as the SDK's twin reads").isEqualTo(ReadBack.snapshot(twin));
    }
  }
}
