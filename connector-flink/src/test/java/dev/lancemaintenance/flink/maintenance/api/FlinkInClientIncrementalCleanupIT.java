package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.ledger.IncrementalCleanupContract;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.time.Clock;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The thirty days of maintenance as a Flink user's daily cleanup runs them on a table of up to
 * {@value DistributeAbove#DEFAULT} versions: in the client, where the run is the local engine's and
 * so decides from the previous run's key snapshot where it can, reading none of the ledger to mark
 * (docs/ledger.md, section 12), and submits no Flink job. {@link FlinkIncrementalCleanupIT} runs the
 * same contract as jobs. The cluster's list of jobs tells where each run went.
 */
class FlinkInClientIncrementalCleanupIT extends IncrementalCleanupContract {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  /** Where the runs go: in the client up to this many versions, as jobs above. */
  private int distributeAbove = DistributeAbove.DEFAULT;

  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return new FlinkCleanupAction(env, TableLocation.of(tableUri), storage, Clock.systemUTC())
        .distributeAbove(distributeAbove);
  }

  /** The days the local engine decides from the snapshot (IncrementalCleanupIT): the same in Flink's client. */
  @Test
  void dayAfterDayTheKeySnapshotDecidesWhereItCanAndTheRunsLeaveWhatTheSdkLeaves(
      @InjectClusterClient ClusterClient<?> flink) throws Exception {
    int jobsBefore = jobs(flink);

    assertThat(daysFromTheKeySnapshot("key-snapshot")).as("the days decided from the key snapshot")
        .containsExactly(2, 3, 4, 5, 6, 7, 8);
    assertThat(jobs(flink)).as("Flink jobs the daily runs of a small table submitted").isEqualTo(jobsBefore);
  }

  /**
   * A table that outgrows the threshold: its runs so far were the client's and left key snapshots,
   * which a job does not decide from. Above the threshold, with more new versions than it, the run
   * is a Flink job that reads the ledger after the plan instead of beside it (the read-ahead read the
   * snapshot), and still leaves what the SDK leaves, marking as the full decode does (verify). A job
   * leaves the key snapshot of the versions it keeps, so the next daily run with few new versions
   * is the client's again, decided from it, though the table is above the threshold.
   */
  @Test
  void aTableThatOutgrowsTheThresholdIsCleanedAsAJobAndLeavesWhatTheSdkLeaves(
      @InjectClusterClient ClusterClient<?> flink) throws Exception {
    distributeAbove = 6;
    LanceTableFixture table = LanceTableFixture.create(work.resolve("outgrown"));
    int jobsBefore = jobs(flink);
    for (int day = 1; day <= 3; day++) {
      table.append(5);
      table.append(5);
      cleanAndCompare(table, new Policy(2), "in the client, day " + day, MarkMode.INCREMENTAL);
    }
    assertThat(jobs(flink)).as("Flink jobs while the table had at most 6 versions").isEqualTo(jobsBefore);
    assertThat(generation(table.root(), "keys.")).as("key snapshots the client's runs left").isPositive();

    for (int commit = 0; commit < 5; commit++) {
      table.append(5);
    }
    table.deleteWhere("id % 3 = 0");
    cleanAndCompare(table, new Policy(2), "as a job, verified", MarkMode.VERIFY);
    int jobsAfterTheFirstJob = jobs(flink);
    assertThat(jobsAfterTheFirstJob).as("a table of 8 versions is cleaned as a Flink job").isGreaterThan(jobsBefore);

    for (int commit = 0; commit < 7; commit++) {
      table.append(5);
    }
    cleanAndCompare(table, new Policy(1), "as a job", MarkMode.INCREMENTAL);
    int jobsAfterTheSecondJob = jobs(flink);
    assertThat(jobsAfterTheSecondJob).as("the next run, 7 versions new, is a job too").isGreaterThan(jobsAfterTheFirstJob);

    for (int commit = 0; commit < 6; commit++) {
      table.append(5);
    }
    assertThat(takesTheKeySnapshot(table, new Policy(2), "7 versions, 6 new: in the client"))
        .as("a daily run with 6 new versions decides from the snapshot the job left").isTrue();
    assertThat(jobs(flink)).as("Flink jobs of a run with at most 6 new versions").isEqualTo(jobsAfterTheSecondJob);
  }

  /** The jobs the cluster has run or runs: a run in the client adds none. */
  private static int jobs(ClusterClient<?> flink) throws Exception {
    return flink.listJobs().get().size();
  }
}
