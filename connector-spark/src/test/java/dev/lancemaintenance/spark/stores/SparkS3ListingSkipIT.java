package dev.lancemaintenance.spark.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.spark.SparkCleanupAction;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.stores.S3Bucket;
import dev.lancemaintenance.testing.stores.S3DailyRuns;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spark user's daily {@code CALL lance.cleanup(..., mode => 'incremental', listing => 'auto')} on
 * S3, cleaned in the driver: it examines the names that can be candidates instead of listing the
 * managed directories, as the local engine's daily run does (docs/ledger.md, section 11;
 * {@code S3ListingSkipIT} runs every condition on the local engine, whose code the driver runs), and
 * removes what the official SDK's cleanup removes from a copy, every kept version reading back.
 * Both routes to the driver: a table of at most {@code distribute_above} versions, and a larger
 * table's daily run from the key snapshot its jobs left. (A run meant for the driver that went to
 * jobs would fail: the counting storage does not serialize.)
 */
class SparkS3ListingSkipIT {
  private static final String BUCKET = "spark-listing-skip";
  private static final Map<String, String> AUTO = Map.of("listing", "auto");
  private static final Map<String, String> AUTO_VERIFIED = Map.of("listing", "auto", "verify", "true");
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @TempDir Path work;

  @Test
  void aSmallTablesDailyRunsInTheDriverExamineNamesInsteadOfListingAndRemoveWhatTheSdkRemoves() {
    S3DailyRuns runs = inTheDriverUpTo(100);
    String name = "small.lance";
    LanceTableFixture table = create(name, 8);

    assertThat(runs.day(table, name, 2, false, AUTO)).as("no key snapshot yet").isEqualTo("listed");
    assertThat(runs.day(table, name, 3, false, AUTO)).as("no record of the last listing yet").isEqualTo("listed");
    assertThat(runs.day(table, name, 4, false, AUTO)).as("the record the listing left").isEqualTo("examined");
    table.append(10);
    table.deleteWhere("id % 5 = 0");
    assertThat(runs.day(table, name, 5, false, AUTO)).as("after an append and a delete").isEqualTo("examined");
    assertThat(runs.day(table, name, 6, false, AUTO_VERIFIED)).as("verify beside the record").isEqualTo("listed and compared");
    table.append(10);
    assertThat(runs.day(table, name, 7, false, Map.of())).as("listing => 'always', the default").isEqualTo("listed");
  }

  @Test
  void aLargeTablesDailyRunInTheDriverFromTheSnapshotItsJobsLeftExaminesNamesToo() {
    S3DailyRuns runs = inTheDriverUpTo(3);
    String name = "large.lance";
    LanceTableFixture table = create(name, 8);
    // Above the threshold with every version new: jobs, which leave the key snapshot of what they
    // keep but no record of their listing.
    CleanupResult asJobs = new SparkCleanupAction(SPARK.session(), TableLocation.of(S3ProxyServer.s3aUri(BUCKET, name)),
        HadoopTableStorage.factory(S3.storageConf()), Clock.systemUTC())
        .distributeAbove(3).markMode(MarkMode.INCREMENTAL).options(AUTO)
        .beforeVersion(2).beforeTimestamp(Instant.now().plusSeconds(60)).errorIfTaggedOldVersions(false).execute();
    assertThat(asJobs.counters().manifestFilesRemoved()).as("the jobs' run").isEqualTo(1);

    table.append(10);
    assertThat(runs.day(table, name, 3, false, AUTO)).as("in the driver from the jobs' snapshot, no record yet")
        .isEqualTo("listed");
    table.append(10);
    assertThat(runs.day(table, name, 4, false, AUTO)).as("in the driver, from the record the driver's listing left")
        .isEqualTo("examined");
  }

  private S3DailyRuns inTheDriverUpTo(int distributeAbove) {
    return new S3DailyRuns(S3, work, (uri, storage) ->
        new SparkCleanupAction(SPARK.session(), TableLocation.of(uri), storage, Clock.systemUTC())
            .distributeAbove(distributeAbove).markMode(MarkMode.INCREMENTAL));
  }

  private static LanceTableFixture create(String name, int appends) {
    LanceTableFixture table = LanceTableFixture.createAt(S3ProxyServer.lanceUri(BUCKET, name),
        FixtureOptions.defaults().withStorageOptions(S3.server().lanceStorageOptions()));
    for (int i = 0; i < appends; i++) {
      table.append(10);
    }
    return table;
  }
}
