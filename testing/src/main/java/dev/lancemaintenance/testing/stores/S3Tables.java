package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.testing.CompactedHistory;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The table every engine's S3 test cleans, written into the bucket by the Lance SDK (so object
 * mtimes are the server's clock, as on S3), and the comparisons those tests make on object listings.
 */
public final class S3Tables {
  private S3Tables() {}

  /** {@link CompactedHistory} in the bucket. */
  public static LanceTableFixture writeCompactedHistory(S3ProxyServer s3, String bucket, String key) {
    return CompactedHistory.write(
        LanceTableFixture.createAt(
            S3ProxyServer.lanceUri(bucket, key),
            FixtureOptions.defaults().withStorageOptions(s3.lanceStorageOptions())));
  }

  /**
   * The policy the S3 tests clean {@link #writeCompactedHistory} tables with: versions before the
   * compaction's successor expire (so the pre-compaction data and index files go); the compacted
   * version and the append after it stay, so there is history left to read.
   */
  public static ContractPolicy oldHistory(LanceTableFixture table) {
    return ContractPolicy.before("everything old", Instant.now().plus(Duration.ofMinutes(1)))
        .withBeforeVersion(table.latestVersion() - 1);
  }

  /** Keys listed {@code before} and not {@code after}. */
  public static Set<String> removed(SortedMap<String, Long> before, SortedMap<String, Long> after) {
    Set<String> removed = new TreeSet<>(before.keySet());
    removed.removeAll(after.keySet());
    return removed;
  }

  /**
   * Files per top-level directory ({@code data}, {@code _indices}, ...): how two tables written by
   * the same recipe compare, since their data and index file names are random UUIDs.
   */
  public static Map<String, Long> countsByTopDirectory(Set<String> files) {
    return files.stream()
        .collect(Collectors.groupingBy(
            f -> f.contains("/") ? f.substring(0, f.indexOf('/')) : "", TreeMap::new, Collectors.counting()));
  }

  /**
   * Twin tables of the same recipe, one cleaned by us ({@code ours}) and one by the SDK, end alike:
   * the SDK's counters but bytes (the twins' manifests and transactions encode different UUIDs and
   * timestamps), the same number of objects per top-level directory, and the same two versions,
   * every one still readable.
   */
  public static void assertEndsLikeTheSdk(
      CleanupResult ours,
      OracleStats reference,
      SortedMap<String, Long> ourAfter,
      SortedMap<String, Long> sdkAfter,
      LanceTableFixture ourTable,
      LanceTableFixture sdkTable) {
    assertThat(CleanupContractTest.countersOf(ours))
        .as("counters")
        .usingRecursiveComparison()
        .ignoringFields("bytesRemoved")
        .isEqualTo(reference);
    assertThat(countsByTopDirectory(ourAfter.keySet())).isEqualTo(countsByTopDirectory(sdkAfter.keySet()));
    TableSnapshot ourVersions = ReadBack.snapshot(ourTable.uri(), ourTable.storageOptions());
    assertThat(ourVersions.unreadable()).as("versions that no longer read").isEmpty();
    assertThat(ourVersions.entries()).hasSize(2);
    assertThat(ourVersions).isEqualTo(ReadBack.snapshot(sdkTable.uri(), sdkTable.storageOptions()));
  }
}
