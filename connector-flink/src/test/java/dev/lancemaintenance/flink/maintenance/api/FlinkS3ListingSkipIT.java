package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.stores.S3Bucket;
import dev.lancemaintenance.testing.stores.S3DailyRuns;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Flink user's daily incremental cleanup with {@code listing => 'auto'} on S3, cleaned in the
 * client: it examines the names that can be candidates instead of listing the managed directories,
 * as the local engine's daily run does (docs/ledger.md, section 11; {@code S3ListingSkipIT} runs
 * every condition on the local engine, whose code the client runs), removes what the official SDK's
 * cleanup removes from a copy, every kept version reading back, and submits no Flink job.
 */
class FlinkS3ListingSkipIT {
  private static final String BUCKET = "flink-listing-skip";
  private static final Map<String, String> AUTO = Map.of("listing", "auto");
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);

  @TempDir Path work;

  @Test
  void aSmallTablesDailyRunsInTheClientExamineNamesInsteadOfListingAndRemoveWhatTheSdkRemoves(
      @InjectClusterClient ClusterClient<?> flink) throws Exception {
    S3DailyRuns runs = new S3DailyRuns(S3, work, (uri, storage) -> {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(FlinkTestCluster.PARALLELISM);
      return new FlinkCleanupAction(env, TableLocation.of(uri), storage, Clock.systemUTC()).markMode(MarkMode.INCREMENTAL);
    });
    String name = "client.lance";
    LanceTableFixture table = LanceTableFixture.createAt(S3ProxyServer.lanceUri(BUCKET, name),
        FixtureOptions.defaults().withStorageOptions(S3.server().lanceStorageOptions()));
    for (int i = 0; i < 8; i++) {
      table.append(10);
    }
    int jobsBefore = flink.listJobs().get().size();

    assertThat(runs.day(table, name, 2, false, AUTO)).as("no key snapshot yet").isEqualTo("listed");
    assertThat(runs.day(table, name, 3, false, AUTO)).as("no record of the last listing yet").isEqualTo("listed");
    assertThat(runs.day(table, name, 4, false, AUTO)).as("the record the listing left").isEqualTo("examined");
    table.append(10);
    table.deleteWhere("id % 5 = 0");
    assertThat(runs.day(table, name, 5, false, AUTO)).as("after an append and a delete").isEqualTo("examined");
    assertThat(flink.listJobs().get().size()).as("Flink jobs the daily runs submitted").isEqualTo(jobsBefore);
  }
}
