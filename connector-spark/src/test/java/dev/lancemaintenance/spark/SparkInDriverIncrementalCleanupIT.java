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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The thirty days of maintenance as a Spark user's daily {@code CALL} runs them on a table of up to
 * {@value DistributeAbove#DEFAULT} versions: in the driver, where the run is the
 * local engine's and so decides from the previous run's key snapshot where it can, reading none of
 * the ledger to mark (docs/ledger.md, section 12). {@link SparkIncrementalCleanupIT} runs the same
 * contract as jobs.
 */
class SparkInDriverIncrementalCleanupIT extends IncrementalCleanupContract {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();
  /** Where the runs go: in the driver up to this many versions, as jobs above. */
  private int distributeAbove = DistributeAbove.DEFAULT;

  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    return new SparkCleanupAction(SPARK.session(), TableLocation.of(tableUri), storage, Clock.systemUTC())
        .distributeAbove(distributeAbove);
  }

  /** The days the local engine decides from the snapshot (IncrementalCleanupIT): the same in Spark's driver. */
  @Test
  void dayAfterDayTheKeySnapshotDecidesWhereItCanAndTheRunsLeaveWhatTheSdkLeaves() {
    assertThat(daysFromTheKeySnapshot("key-snapshot")).as("the days decided from the key snapshot")
        .containsExactly(2, 3, 4, 5, 6, 7, 8);
  }

  /**
   * A table above the threshold: its first run goes to jobs, which fold the ledger and leave the key
   * snapshot of the versions they keep. A daily run with at most the threshold's versions new since
   * then reads only those, so it is cleaned in the driver and decides from that snapshot; one with
   * more new versions goes to jobs again. Every run leaves what the SDK leaves. (A run meant for the
   * driver that went to jobs would fail on the probe of {@code takesTheKeySnapshot}, whose storage
   * does not serialize.)
   */
  @Test
  void aDailyRunOfATableAboveTheThresholdWithFewNewVersionsDecidesInTheDriverFromTheSnapshotJobsLeft()
      throws InterruptedException {
    distributeAbove = 3;
    LanceTableFixture table = LanceTableFixture.create(work.resolve("large"));
    for (int commit = 0; commit < 6; commit++) {
      table.append(5);
    }
    SparkJobsSeen jobs = SparkJobsSeen.listenTo(SPARK.session());
    try {
      cleanAndCompare(table, new Policy(2), "7 versions, no snapshot: jobs", MarkMode.INCREMENTAL);
      assertThat(jobs.seenUntilBarrier(SPARK.session())).as("Spark jobs of the first run").isNotEmpty();
      assertThat(generation(table.root(), "keys.")).as("the key snapshot the jobs left").isPositive();

      table.append(5);
      table.deleteWhere("id % 3 = 0");
      assertThat(takesTheKeySnapshot(table, new Policy(2), "4 versions, 2 new: in the driver"))
          .as("a daily run with 2 new versions decides from the snapshot the jobs left").isTrue();
      assertThat(jobs.seenUntilBarrier(SPARK.session())).as("Spark jobs of a run with 2 new versions").isEmpty();

      for (int commit = 0; commit < 4; commit++) {
        table.append(5);
      }
      cleanAndCompare(table, new Policy(2), "6 versions, 4 new: jobs", MarkMode.INCREMENTAL);
      assertThat(jobs.seenUntilBarrier(SPARK.session())).as("Spark jobs of a run with 4 new versions").isNotEmpty();

      table.append(5);
      table.append(5);
      assertThat(takesTheKeySnapshot(table, new Policy(1), "4 versions, 2 new: in the driver"))
          .as("the jobs' run left a snapshot the next daily run decides from").isTrue();
      assertThat(jobs.seenUntilBarrier(SPARK.session())).as("Spark jobs of the last run").isEmpty();
    } finally {
      jobs.stopListening(SPARK.session());
    }
  }

  /**
   * A table whose runs go to jobs ({@code distribute_above => 0}) after runs in the driver left key
   * snapshots, which a run as jobs does not decide from: it reads the ledger ahead, as every run of
   * a session that distributes every table, and still leaves what the SDK leaves, marking as the
   * full decode does (verify).
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
