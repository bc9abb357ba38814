package dev.lancemaintenance.flink.packaged;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.testing.CompactedHistory;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableTwins;
import dev.lancemaintenance.testing.cluster.FlinkSessionCluster;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A freshly written table ({@code ours}, a {@link CompactedHistory}) and its twin that the SDK's
 * cleanup already cleaned with {@code policy}, for a run of ours on {@code cluster};
 * {@code finishedBefore} is the cluster's count of finished jobs before ours runs.
 */
record CleanedTwins(
    FlinkSessionCluster cluster, Path ours, Path sdk, List<String> before, ContractPolicy policy, int finishedBefore) {

  static CleanedTwins cleanedBySdk(FlinkSessionCluster cluster, Path dir) {
    Path ours = CompactedHistory.write(LanceTableFixture.create(dir.resolve("ours.lance"))).root();
    List<String> before = FileTimes.listFiles(ours);
    ContractPolicy policy = ContractPolicy.before("everything old", Instant.now());
    Path sdk = ours.resolveSibling("sdk.lance");
    TableTwins.copy(ours, sdk);
    OracleStats reference = LanceOracle.cleanup(sdk, policy.toOracle()).stats();
    assertThat(reference.dataFilesRemoved()).as("data files the compaction replaced").isPositive();
    return new CleanedTwins(cluster, ours, sdk, before, policy, cluster.finishedJobs());
  }

  /** Ours ran on the cluster and left exactly the SDK's files, every version reading the same. */
  void assertOursCleanedLikeTheSdk() {
    assertThat(cluster.finishedJobs()).as("jobs the cluster finished").isGreaterThan(finishedBefore);
    assertThat(FileTimes.listFiles(ours)).as("files left by our run vs the SDK's").isEqualTo(FileTimes.listFiles(sdk));
    assertThat(FileTimes.listFiles(ours)).as("something was removed").hasSizeLessThan(before.size());
    assertThat(ReadBack.snapshot(ours)).isEqualTo(ReadBack.snapshot(sdk));
  }
}
