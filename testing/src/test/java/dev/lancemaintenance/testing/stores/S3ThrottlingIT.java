package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store that throttles: every fifth request our cleanup sends is answered {@code 503 Slow Down}
 * by a proxy in front of the S3 server. The cleanup must back off, retry and end exactly where the
 * SDK's cleanup of a twin table ends, with no failed delete and every remaining version readable.
 * Lists, reads and bulk deletes are all refused in turn, since refusals follow arrival order.
 */
class S3ThrottlingIT {
  private static final String BUCKET = "throttled";
  private static final int REFUSE_EVERY = 5;

  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);
  private static ThrottlingProxy throttling;

  @BeforeAll
  static void startServers() {
    throttling = ThrottlingProxy.start(S3.endpoint(), REFUSE_EVERY);
  }

  @AfterAll
  static void stopServers() {
    if (throttling != null) {
      throttling.close();
    }
  }

  /** s3a through the throttling proxy, with s3a's own backoff for throttled requests. */
  private static StorageConf throttledStore() {
    Map<String, String> settings = new LinkedHashMap<>(S3.hadoopSettings());
    settings.put("fs.s3a.endpoint", throttling.endpoint().toString());
    settings.put("fs.s3a.retry.throttle.limit", "20");
    settings.put("fs.s3a.retry.throttle.interval", "20ms");
    settings.put("fs.s3a.retry.limit", "20");
    settings.put("fs.s3a.retry.interval", "20ms");
    return StorageConf.of(settings);
  }

  @Test
  void cleanupBacksOffUnderSlowDownAndEndsLikeTheSdk() {
    LanceTableFixture sdkTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "sdk.lance");
    LanceTableFixture ourTable = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "ours.lance");
    ContractPolicy policy = S3Tables.oldHistory(sdkTable);

    OracleStats reference =
        LanceOracle.cleanup(sdkTable.uri(), sdkTable.storageOptions(), policy.toOracle()).stats();
    long refusedBefore = throttling.refused();
    CleanupResult ours =
        policy.applyTo(
                new LocalCleanupAction(
                    TableLocation.of(S3.s3aUri("ours.lance")),
                    HadoopTableStorage.factory(throttledStore()),
                    Clock.systemUTC()))
            .execute();

    long refused = throttling.refused() - refusedBefore;
    System.out.printf("S3 throttling: %d of %d requests answered 503 Slow Down, cleanup completed%n",
        refused, throttling.requests());
    assertThat(refused).as("requests the proxy refused with 503 Slow Down").isPositive();
    assertThat(ours.counters().failedDeletes()).as("failed deletes").isZero();
    SortedMap<String, Long> ourAfter = objects("ours.lance");
    SortedMap<String, Long> sdkAfter = objects("sdk.lance");
    S3Tables.assertEndsLikeTheSdk(ours, reference, ourAfter, sdkAfter, ourTable, sdkTable);
  }

  private static SortedMap<String, Long> objects(String key) {
    return TableCopies.listFiles(S3.s3aUri(key), S3.storageConf().toConfiguration());
  }
}
