package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.ledger.IncrementalCleanupContract;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.time.Clock;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The thirty days of maintenance as a Spark user's daily {@code CALL} runs them on a table of up to
 * {@value DistributeAbove#DEFAULT} versions: in the driver, where the run is the
 * local engine's and so decides from the previous run's key snapshot where it can, reading none of
 * the ledger to mark (docs/ledger.md, section 12). {@link SparkIncrementalCleanupIT} runs the same
 * contract as jobs.
 */
class SparkInDriverIncrementalCleanupIT extends IncrementalCleanupContract {
  private static SparkSession spark;
  /** Where the runs go: in the driver up to this many versions, as jobs above. */
  private int distributeAbove = DistributeAbove.DEFAULT;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.start();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    return new SparkCleanupAction(spark, TableLocation.of(tableUri), storage, Clock.systemUTC())
        .distributeAbove(distributeAbove);
  }

  /** The days the local engine decides from the snapshot (IncrementalCleanupIT): the same in Spark's driver. */
  @Test
  void dayAfterDayTheKeySnapshotDecidesWhereItCanAndTheRunsLeaveWhatTheSdkLeaves() {
    assertThat(daysFromTheKeySnapshot("key-snapshot")).as("the days decided from the key snapshot")
        .containsExactly(2, 3, 4, 5, 6, 7, 8);
  }

  /**
   * A table that outgrows the driver: its runs so far left key snapshots, which a run as jobs does
   * not decide from. It reads the ledger after the plan instead of beside it (the read-ahead read the
   * snapshot), and still leaves what the SDK leaves, marking as the full decode does (verify).
   */
  @Test
  void aRunAsJobsAfterRunsInTheDriverMarksFromTheLedgerAndLeavesWhatTheSdkLeaves() {
    LanceTableFixture table = LanceTableFixture.create(work.resolve("outgrown"));
    for (int day = 1; day <= 3; day++) {
      table.append(5);
      table.append(5);
      cleanAndCompare(table, new Policy(2), "in the driver, day " + day, MarkMode.INCREMENTAL);
    }
    assertThat(generation(table.root(), "keys.")).as("key snapshots the driver's runs left").isPositive();

    distributeAbove = 0;
    table.append(5);
    table.deleteWhere("id % 3 = 0");
    cleanAndCompare(table, new Policy(2), "as jobs, verified", MarkMode.VERIFY);
    table.append(5);
    cleanAndCompare(table, new Policy(1), "as jobs", MarkMode.INCREMENTAL);
  }
}
