package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.engine.BaseCleanupAction;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.ScalarIndexKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The local engine's daily run on S3 (s3a to an S3 server on 127.0.0.1) examining the names that
 * can be candidates instead of listing the managed directories (docs/ledger.md, section 11), between
 * commits the official SDK writes into the bucket. Each run removes exactly what the SDK's cleanup
 * removes from a copy of the same objects, every version it keeps reads back, and the storage says
 * whether it listed {@code data/}, {@code _transactions/}, {@code _deletions/} or {@code _indices/}:
 * the days that must skip the listing list none of them, and every condition that must make a run
 * list does.
 *
 * <p>The runs are given no {@code PUT} margin ({@code putMargin}, {@link S3DailyRuns}): the versions
 * here are seconds old, and the margin only narrows when a run may skip. The store's times are its
 * own (s3proxy stamps every object as it is written), as the path requires; nothing back-dates.
 */
class S3ListingSkipIT {
  private static final String BUCKET = "lance-listing-skip";
  /** The skip is opt-in ({@code listing => 'always'} is the default): the runs that may examine names ask for it. */
  private static final Map<String, String> AUTO = Map.of("listing", "auto");
  /** A run that lists and compares with the names it could have examined instead (docs/ledger.md, section 11.6). */
  private static final Map<String, String> AUTO_VERIFIED = Map.of("listing", "auto", "verify", "true");
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);
  @TempDir Path work;
  private S3DailyRuns runs;

  @BeforeEach
  void localEngine() {
    runs = new S3DailyRuns(S3, work,
        (uri, storage) -> new LocalCleanupAction(TableLocation.of(uri), storage, Clock.systemUTC()).markMode(MarkMode.INCREMENTAL));
  }

  /** What one run did: whether it listed a managed directory, and how many key prefixes it listed instead. */
  private record Run(boolean listed, int prefixesExamined, CleanupResult result) {}

  @Test
  void dayAfterDayMostRunsExamineNamesInsteadOfListingAndRemoveWhatTheSdkRemoves() {
    String name = "daily.lance";
    // An orphan older than the versions that expire later: kept by the listing runs for its time
    // and its age (the record's K), examined by the runs that skip, and deleted, as by the SDK, once
    // delete_unverified is given.
    LanceTableFixture table = withAnOrphanAfterTwoVersions(name, 5);

    List<String> days = new ArrayList<>();
    // Day 1: no snapshot yet (today's path); day 2: the snapshot's path, no record yet: both list.
    days.add(runs.day(table, name, 2, false, AUTO));
    days.add(runs.day(table, name, 3, false, AUTO));
    // Days 3 to 5: every version they keep but the new ones was committed before day 2's listing.
    table.append(10);
    table.deleteWhere("id % 5 = 0");
    days.add(runs.day(table, name, 4, false, AUTO));
    table.createScalarIndex("id", ScalarIndexKind.BTREE);
    table.restore(table.latestVersion() - 2);
    days.add(runs.day(table, name, 5, false, AUTO));
    table.compact();
    days.add(runs.day(table, name, 6, true, AUTO));
    // Day 6: the oldest version kept was committed after day 2's listing: the run lists, and moves
    // the horizon; day 7 skips again from it.
    long afterDay2 = table.latestVersion() - 3;
    days.add(runs.day(table, name, afterDay2, false, AUTO));
    table.append(10);
    days.add(runs.day(table, name, afterDay2 + 1, false, AUTO));

    assertThat(days).containsExactly("listed", "listed", "examined", "examined", "examined", "listed", "examined");
    assertThat(S3.server().blobStore().blobExists(BUCKET, name + "/data/never-committed.lance"))
        .as("the orphan kept for its age by the listing runs, examined from the record and deleted").isFalse();
  }

  @Test
  void everyConditionThatMustMakeTheRunListDoesAndTheRunsStillRemoveWhatTheSdkRemoves() {
    String name = "conditions.lance";
    LanceTableFixture table = examiningByTheThirdRun(name);

    // listing => 'always', the default, lists, and leaves no record: a user who keeps it does not
    // vouch for the store's times, so the next run lists too, and records.
    assertThat(runs.day(table, name, 5, false, Map.of())).as("listing => 'always', the default").isEqualTo("listed");
    assertThat(runs.day(table, name, 6, false, AUTO)).as("listing => 'auto' after listing => 'always'").isEqualTo("listed");
    assertThat(runs.day(table, name, 7, false, AUTO)).as("the record the listing left").isEqualTo("examined");

    // A record changed in one byte, then one cut short: refused, the run lists and writes a new one.
    damageNewestRecord(name, bytes -> { bytes[bytes.length / 2] ^= 1; return bytes; });
    assertThat(runs.day(table, name, 8, false, AUTO)).as("a record changed in a byte").isEqualTo("listed");
    damageNewestRecord(name, bytes -> java.util.Arrays.copyOf(bytes, bytes.length - 3));
    assertThat(runs.day(table, name, 9, false, AUTO)).as("a record cut short").isEqualTo("listed");

    // Another table's record, newer than this one's.
    String other = "other.lance";
    LanceTableFixture otherTable = create(other);
    otherTable.append(10);
    otherTable.append(10);
    runs.day(otherTable, other, 2, false, AUTO);
    runs.day(otherTable, other, 2, false, AUTO);
    byte[] foreign = read(newestRecord(other));
    putObject(newestRecord(name).replaceAll("unlisted\\.[0-9]+$", "unlisted.0000000000000009999"), foreign);
    table.append(10);
    assertThat(runs.day(table, name, 9, false, AUTO)).as("another table's record").isEqualTo("listed");

    // The record deleted.
    table.append(10);
    S3.server().blobStore().removeBlob(BUCKET, newestRecord(name));
    assertThat(runs.day(table, name, 9, false, AUTO)).as("no record").isEqualTo("listed");
    table.append(10);
    assertThat(runs.day(table, name, 10, false, AUTO)).as("the record the listing left").isEqualTo("examined");

    // A version removed by the SDK between two runs: the snapshot no longer describes the listed
    // versions, the run takes today's path and lists.
    table.append(10);
    OraclePolicy sdkBetween = OraclePolicy.builder().beforeVersion(11).beforeTimestamp(Instant.now().plusSeconds(60))
        .errorIfTaggedOldVersions(false).build();
    assertThat(LanceOracle.cleanup(S3ProxyServer.lanceUri(BUCKET, name), S3.server().lanceStorageOptions(), sdkBetween))
        .isInstanceOf(OracleOutcome.Removed.class);
    assertThat(runs.day(table, name, 12, false, AUTO)).as("a version removed by the SDK between runs").isEqualTo("listed");
  }

  /**
   * The record of the last listing and the key snapshot are read beside the plan, and the choice to
   * examine names is made from them before the plan's listing of the versions arrives
   * (ListingChoice). Here the SDK removes versions after the record was read and before the plan
   * lists them: the choice said "examine" and started no walk, the listed versions are no longer
   * those the record and the snapshot describe, so the run must list after the mark after all, and
   * leave what the SDK's two cleanups leave on a copy.
   */
  @Test
  void aRecordReadBesideThePlanThatTheListedVersionsNoLongerMatchMakesTheRunList() {
    String name = "stale.lance";
    LanceTableFixture table = examiningByTheThirdRun(name);
    table.append(10);
    OraclePolicy sdkBetween = OraclePolicy.builder().beforeVersion(6).beforeTimestamp(Instant.now().plusSeconds(60))
        .errorIfTaggedOldVersions(false).build();
    Runnable sdkCleanup = () -> assertThat(LanceOracle.cleanup(S3ProxyServer.lanceUri(BUCKET, name),
        S3.server().lanceStorageOptions(), sdkBetween)).isInstanceOf(OracleOutcome.Removed.class);
    assertThat(runs.day(table, name, 7, false, AUTO, sdkCleanup, List.of(sdkBetween), Duration.ZERO))
        .as("versions removed by the SDK after the record was read, before the plan listed").isEqualTo("listed");
    // That run marked on today's path, which leaves a key snapshot but no record beside it: the
    // next run lists (the record is of other versions) and leaves one, from which the one after skips.
    table.append(10);
    assertThat(runs.day(table, name, 8, false, AUTO)).as("a record of other versions than the snapshot's").isEqualTo("listed");
    table.append(10);
    assertThat(runs.day(table, name, 9, false, AUTO)).as("the record the listing left").isEqualTo("examined");
  }

  /**
   * {@code verify => true} on days a run could examine names instead of listing: each lists, reads
   * the names the run without a listing would examine, finds that they decide the same deletes, and
   * leaves what the SDK leaves; a verify run leaves the record of its own listing, so the next one
   * compares again, and a run without verify examines names from it. One verify day deletes, as
   * both sides and the SDK do, an orphan the record carries in {@code K} (delete_unverified).
   */
  @Test
  void daysWithVerifyCompareTheNamesExaminedWithTheListingAndRemoveWhatTheSdkRemoves() {
    String name = "verified.lance";
    LanceTableFixture table = withAnOrphanAfterTwoVersions(name, 6);
    assertThat(runs.day(table, name, 2, false, AUTO)).as("no snapshot").isEqualTo("listed");
    assertThat(runs.day(table, name, 3, false, AUTO)).as("no record yet").isEqualTo("listed");
    assertThat(runs.day(table, name, 4, false, AUTO_VERIFIED)).as("verify beside a record").isEqualTo("listed and compared");
    table.deleteWhere("id % 7 = 0");
    assertThat(runs.day(table, name, 5, false, AUTO_VERIFIED)).as("verify beside the record a verify run left")
        .isEqualTo("listed and compared");
    table.createScalarIndex("id", ScalarIndexKind.BTREE);
    assertThat(runs.day(table, name, 6, true, AUTO_VERIFIED)).as("verify, the orphan of K deleted by both sides")
        .isEqualTo("listed and compared");
    assertThat(S3.server().blobStore().blobExists(BUCKET, name + "/data/never-committed.lance"))
        .as("the orphan, examined from the record and deleted as the listing and the SDK delete it").isFalse();
    table.append(10);
    assertThat(runs.day(table, name, 7, false, AUTO)).as("no verify, from the record the verify run left").isEqualTo("examined");
  }

  /**
   * A record whose claim the listing disproves: the store's horizon answered ahead of the times it
   * stamps on objects (as a node with a fast clock behind a load balancer would), so the record a
   * listing run left claims every object older than that horizon was seen; an orphan the store's
   * API writes after that listing is older than the horizon, in no {@code K} and referenced by no
   * version. A run without a listing would keep it; the listing deletes it (delete_unverified).
   * {@code verify => true} refuses the run before its first delete, naming the orphan and the side
   * that deletes it.
   */
  @Test
  void verifyRefusesARunWhoseRecordTheListingDisprovesAndDeletesNothing() {
    String name = "disproved.lance";
    LanceTableFixture table = examiningByTheThirdRun(name);
    // No record: the next run lists, and records the horizon its store gives, one hour ahead.
    S3.server().blobStore().removeBlob(BUCKET, newestRecord(name));
    table.append(10);
    assertThat(runs.day(table, name, 5, false, AUTO, null, List.of(), Duration.ofHours(1))).as("a listing with a fast horizon")
        .isEqualTo("listed");
    String orphan = name + "/data/written-after-the-listing.lance";
    S3.server().putOrphan(BUCKET, orphan);
    table.append(10);
    table.append(10);

    S3DailyRuns.sleep(1_100);
    String uri = S3ProxyServer.s3aUri(BUCKET, name);
    Map<String, Long> before = TableCopies.listFiles(uri, S3.storageConf().toConfiguration());
    S3DailyRuns.Probe probe = new S3DailyRuns.Probe(S3);
    BaseCleanupAction<?> verified = runs.cleanup(uri, probe);
    verified.options(AUTO_VERIFIED);
    verified.beforeVersion(table.latestVersion() - 1).beforeTimestamp(Instant.now().plusSeconds(60))
        .errorIfTaggedOldVersions(false).deleteUnverified(true).allowShortRetention(true);
    assertThatThrownBy(verified::execute).isInstanceOf(MaintenanceException.class)
        .hasMessageStartingWith("Cannot clean up ")
        .hasMessageContaining("verify found the run without a listing would delete other files than the listing in 1 place(s)")
        .hasMessageContaining("nothing was deleted: first " + orphan.substring(name.length() + 1)
            + ": the listing deletes it (UNVERIFIED_DELETE_UNVERIFIED) and the run without a listing does not examine it")
        .satisfies(refused -> assertThat(refused.getMessage()).doesNotContain("\n"));
    assertThat(probe.prefixesExamined()).as("the names the run without a listing examines were read").isPositive();
    assertThat(TableCopies.listFiles(uri, S3.storageConf().toConfiguration()).keySet().stream()
        .filter(path -> !path.startsWith("_maintenance/") && !TableLease.isLeaseFile(path)).toList())
        .as("nothing deleted").isEqualTo(before.keySet().stream()
            .filter(path -> !path.startsWith("_maintenance/") && !TableLease.isLeaseFile(path)).toList());
  }

  /**
   * A table of eight versions after three runs with {@code listing => 'auto'}: the first lists (no
   * snapshot), the second lists (no record yet), the third examines names instead.
   */
  private LanceTableFixture examiningByTheThirdRun(String name) {
    LanceTableFixture table = create(name);
    for (int i = 0; i < 8; i++) {
      table.append(10);
    }
    assertThat(runs.day(table, name, 2, false, AUTO)).as("no snapshot").isEqualTo("listed");
    assertThat(runs.day(table, name, 3, false, AUTO)).as("no record yet").isEqualTo("listed");
    assertThat(runs.day(table, name, 4, false, AUTO)).as("a record beside the snapshot").isEqualTo("examined");
    return table;
  }

  /** A table of two versions, then the orphan {@code data/never-committed.lance}, then {@code appendsAfter} more versions. */
  private static LanceTableFixture withAnOrphanAfterTwoVersions(String name, int appendsAfter) {
    LanceTableFixture table = create(name);
    table.append(10);
    table.append(10);
    S3.server().putOrphan(BUCKET, name + "/data/never-committed.lance");
    for (int i = 0; i < appendsAfter; i++) {
      table.append(10);
    }
    return table;
  }

  private static LanceTableFixture create(String name) {
    return LanceTableFixture.createAt(S3ProxyServer.lanceUri(BUCKET, name),
        FixtureOptions.defaults().withStorageOptions(S3.server().lanceStorageOptions()));
  }

  /** The bucket key of the table's newest record of the last listing. */
  private static String newestRecord(String name) {
    List<String> records = new ArrayList<>();
    S3.server().blobStore().list(BUCKET, ListContainerOptions.Builder.prefix(name + "/_maintenance/ledger/").recursive())
        .forEach(object -> {
          if (object.getName().contains("/unlisted.")) {
            records.add(object.getName());
          }
        });
    return records.stream().sorted().reduce((a, b) -> b)
        .orElseThrow(() -> new AssertionError("no record of the last listing in " + name));
  }

  private static void damageNewestRecord(String name, java.util.function.UnaryOperator<byte[]> damage) {
    String key = newestRecord(name);
    putObject(key, damage.apply(read(key)));
  }

  private static byte[] read(String key) {
    try (var in = S3.server().blobStore().getBlob(BUCKET, key).getPayload().openStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void putObject(String key, byte[] content) {
    BlobStore store = S3.server().blobStore();
    store.putBlob(BUCKET, store.blobBuilder(key).payload(content).contentLength(content.length).build());
  }
}
