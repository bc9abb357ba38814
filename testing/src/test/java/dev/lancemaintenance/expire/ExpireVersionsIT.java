package dev.lancemaintenance.expire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.CountingTableStorage;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.CompactedHistory;
import dev.lancemaintenance.testing.ExpiryRecordFiles;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expire_versions} then a sweep (our cleanup with the same policy) against one SDK 7.0.0
 * cleanup with that policy on a twin: the same files remain and every remaining manifest reads
 * back. Without the expiry record the sweep would keep the expired versions' files (younger than
 * seven days, so unverified), so each comparison fails if the record is not written or not used.
 *
 * <p>One small table ({@link CompactedHistory}: eight versions), written once; each case works on
 * its own copy.
 */
class ExpireVersionsIT {
  @TempDir static Path workDir;

  private static Path pristine;
  private static List<Long> versions;
  private static Instant afterDelete;
  private static final AtomicInteger copies = new AtomicInteger();
  /** Time holds nothing back, so the version bounds decide. */
  private static final Instant FAR_AHEAD = Instant.now().plusSeconds(3_600);
  private static final TableStorageFactory LOCAL = HadoopTableStorage.factory(StorageConf.defaults());

  @BeforeAll
  static void writeTable() {
    LanceTableFixture table = CompactedHistory.write(LanceTableFixture.create(workDir.resolve("pristine")));
    pristine = table.root();
    versions = table.versions();
    assertThat(versions).as("create, 2 appends, a delete, an index, an update, compaction, an append").hasSize(8);
    afterDelete = table.manifestTimestamp(versions.get(3)).plusMillis(1);
  }

  @Test
  void expireThenSweepWithACutoffLeavesWhatOneSdkCleanupLeaves() {
    Path table = copy();

    CleanupResult expired = expire(table, LOCAL).beforeTimestamp(afterDelete).execute();

    LanceTableFixture fixture = LanceTableFixture.open(pristine);
    List<Long> older = versions.stream().filter(v -> fixture.manifestTimestamp(v).isBefore(afterDelete)).toList();
    assertThat(older).as("versions committed before the cutoff").hasSize(4);
    assertThat(expired.counters().oldVersions()).as("versions committed before the cutoff").isEqualTo(older.size());
    assertThat(expired.counters().manifestFilesRemoved()).isEqualTo(older.size());
    assertThat(expired.counters().dataFilesRemoved()).as("expire deletes manifests only").isZero();
    assertThat(LanceTableFixture.open(table).versions()).doesNotContainAnyElementsOf(older).hasSize(versions.size() - older.size());
    KeptManifests.assertEveryManifestReadsBack(table);

    assertThat(expiryRecords(table)).as("records of the expired versions").isNotEmpty();

    sweep(table).beforeTimestamp(afterDelete).execute();
    assertThat(FileTimes.listFiles(table)).as("files left by expire then sweep, and by one SDK cleanup")
        .isEqualTo(sdkLeaves(sdk -> sdk.beforeTimestamp(afterDelete)));
    assertThat(expiryRecords(table)).as("records retired by the complete sweep").isEmpty();
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void aSweepThatDoesNotFinishKeepsTheRecordsAndTheNextCompleteOneRetiresThem() {
    Path table = copy();
    expire(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(2).execute();
    List<Path> records = expiryRecords(table);
    assertThat(records).as("records of the expired versions").isNotEmpty();

    assertThatThrownBy(() -> sweep(table, DeletesCrash.AT_TABLE_FILES).beforeTimestamp(FAR_AHEAD).retainLast(2).execute())
        .hasMessageContaining("simulated crash");
    assertThat(expiryRecords(table)).as("records after a sweep killed at its first delete").isEqualTo(records);
    sweep(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(2).maxDeletes(1).execute();
    assertThat(expiryRecords(table)).as("records after a sweep max_deletes stopped").isEqualTo(records);
    sweep(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(2).dryRun(true).execute();
    assertThat(expiryRecords(table)).as("records after a dry run").isEqualTo(records);

    sweep(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(2).execute();
    assertThat(expiryRecords(table)).as("records after a complete sweep").isEmpty();
    assertThat(FileTimes.listFiles(table)).as("files left by expire, the unfinished sweeps and the last, and by one SDK cleanup")
        .isEqualTo(sdkLeaves(sdk -> sdk.beforeTimestamp(FAR_AHEAD).beforeVersion(newest(2))));
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void expireThenSweepWithRetainLastLeavesWhatOneSdkCleanupLeaves() {
    Path table = copy();

    expire(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(2).execute();
    sweep(table).beforeTimestamp(FAR_AHEAD).retainLast(2).execute();

    assertThat(FileTimes.listFiles(table)).as("files left by expire then sweep, and by one SDK cleanup")
        .isEqualTo(sdkLeaves(sdk -> sdk.beforeTimestamp(FAR_AHEAD).beforeVersion(newest(2))));
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void aTaggedVersionThePolicyReachesRefusesWithNothingDeleted() {
    Path table = copy();
    LanceTableFixture.open(table).tag("first", 1);
    List<String> before = FileTimes.listFiles(table);

    assertThatThrownBy(() -> expire(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(2).execute())
        .isInstanceOf(TaggedVersionsException.class)
        .hasMessageContaining("first -> v1");
    assertThat(FileTimes.listFiles(table)).as("files after the refused run").isEqualTo(before);
  }

  @Test
  void withTheTagRuleOffATaggedVersionStaysAndTheSweepIsStillExact() {
    Path table = copy();
    LanceTableFixture.open(table).tag("first", 1);

    expire(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(2).errorIfTaggedOldVersions(false).execute();
    sweep(table).beforeTimestamp(FAR_AHEAD).retainLast(2).errorIfTaggedOldVersions(false).execute();

    Path twin = copy();
    LanceTableFixture.open(twin).tag("first", 1);
    assertThat(LanceOracle.cleanup(twin, OraclePolicy.builder().beforeTimestamp(FAR_AHEAD).beforeVersion(newest(2))
            .errorIfTaggedOldVersions(false).build()))
        .isInstanceOf(OracleOutcome.Removed.class);
    assertThat(FileTimes.listFiles(table)).as("files left with the tagged version kept").isEqualTo(FileTimes.listFiles(twin));
    KeptManifests.assertEveryManifestReadsBack(table);
    // The kept tag held the listing back: the expired versions' files newer than it stayed, on both.
    // One SDK cleanup forgets those versions; so must we: the complete sweep retired their records.
    assertThat(expiryRecords(table)).as("records retired by the complete sweep").isEmpty();

    LanceTableFixture.open(table).deleteTag("first");
    LanceTableFixture.open(twin).deleteTag("first");
    sweep(table).beforeTimestamp(FAR_AHEAD).retainLast(2).execute();
    assertThat(LanceOracle.cleanup(twin, OraclePolicy.builder().beforeTimestamp(FAR_AHEAD).beforeVersion(newest(2)).build()))
        .isInstanceOf(OracleOutcome.Removed.class);
    assertThat(FileTimes.listFiles(table)).as("files left by the next cleanup after the tag went, and by the SDK's")
        .isEqualTo(FileTimes.listFiles(twin));
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void aDryRunCountsTheVersionsAndDeletesNothing() {
    Path table = copy();
    List<String> before = FileTimes.listFiles(table);

    CleanupResult dry = expire(table, LOCAL).beforeTimestamp(FAR_AHEAD).retainLast(3).dryRun(true).execute();

    assertThat(dry.counters().oldVersions()).isEqualTo(5);
    assertThat(FileTimes.listFiles(table)).as("files after a dry run, no record either").isEqualTo(before);
  }

  @Test
  void aCrashAfterTheRecordThenARerunIsStillExact() {
    Path table = copy();
    List<String> before = FileTimes.listFiles(table);

    assertThatThrownBy(() -> expire(table, DeletesCrash.AT_MANIFESTS).beforeTimestamp(afterDelete).execute())
        .hasMessageContaining("simulated crash");
    assertThat(FileTimes.listFiles(table)).as("the table's files after the crash").isEqualTo(before);
    assertThat(expiryRecords(table)).as("the record written before the deletes").hasSize(1);

    expire(table, LOCAL).beforeTimestamp(afterDelete).execute();
    sweep(table).beforeTimestamp(afterDelete).execute();
    assertThat(FileTimes.listFiles(table)).as("files left after the crash, the rerun and the sweep")
        .isEqualTo(sdkLeaves(sdk -> sdk.beforeTimestamp(afterDelete)));
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void aRecordLeftByACrashNeverDeletesWhatAVersionTheSweepKeepsReads() {
    Path table = copy();
    assertThatThrownBy(() -> expire(table, DeletesCrash.AT_MANIFESTS).beforeTimestamp(FAR_AHEAD).retainLast(1).execute())
        .hasMessageContaining("simulated crash");

    // A narrower sweep than the expire that recorded: versions the record names are retained now.
    sweep(table).beforeTimestamp(FAR_AHEAD).beforeVersion(4).execute();

    assertThat(FileTimes.listFiles(table)).as("files left, as by the SDK with the sweep's policy")
        .isEqualTo(sdkLeaves(sdk -> sdk.beforeTimestamp(FAR_AHEAD).beforeVersion(4)));
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void expireReadsOnlyTheManifestsItExpires() {
    Path table = copy();
    CountingTableStorage.Log log = new CountingTableStorage.Log();

    expire(table, CountingTableStorage.factory(log)).beforeTimestamp(FAR_AHEAD).retainLast(3).execute();

    List<String> manifestsRead = log.read().stream().filter(path -> path.endsWith(".manifest")).distinct().toList();
    assertThat(manifestsRead).as("manifests read").hasSize(5);
    assertThat(log.deleted()).as("manifests deleted").containsExactlyInAnyOrderElementsOf(manifestsRead);
  }

  @Test
  void anOptionExpireDoesNotTakeIsAnErrorNamingIt() {
    Path table = copy();
    assertThatThrownBy(() -> expire(table, LOCAL).options(java.util.Map.of("delete_unverified", "true")))
        .hasMessage("Unknown expire_versions argument 'delete_unverified'; valid arguments: older_than, before_version,"
            + " retain_last, dry_run, error_if_tagged_old_versions, branch");
  }

  // ---------------------------------------------------------------- helpers

  /** Fails a batch of deletes that holds a path it crashes on, as a run killed at that delete. */
  private static final class DeletesCrash extends ForwardingTableStorage {
    /** At the first manifest delete: a run killed after its record and before its deletes. */
    static final TableStorageFactory AT_MANIFESTS = crashingOn(path -> path.endsWith(".manifest"));
    /** At the first delete of a table file: a sweep killed before its end. */
    static final TableStorageFactory AT_TABLE_FILES = crashingOn(path -> !path.contains("_maintenance/"));

    private final Predicate<String> crashesOn;

    DeletesCrash(dev.lancemaintenance.storage.TableStorage delegate, Predicate<String> crashesOn) {
      super(delegate);
      this.crashesOn = crashesOn;
    }

    private static TableStorageFactory crashingOn(Predicate<String> crashesOn) {
      return location -> new DeletesCrash(new HadoopTableStorage(location, StorageConf.defaults()), crashesOn);
    }

    @Override
    public List<DeleteFailure> deleteBatch(List<String> paths) {
      if (paths.stream().anyMatch(crashesOn)) {
        throw new StorageException("delete", paths.get(0), new IOException("simulated crash"));
      }
      return super.deleteBatch(paths);
    }
  }

  private static ExpireVersionsAction expire(Path table, TableStorageFactory storage) {
    return new ExpireVersionsAction(TableLocation.of(table.toString()), storage, Clock.systemUTC());
  }

  private static CleanupAction sweep(Path table) {
    return sweep(table, LOCAL);
  }

  private static CleanupAction sweep(Path table, TableStorageFactory storage) {
    return new LocalCleanupAction(TableLocation.of(table.toString()), storage, Clock.systemUTC());
  }

  private static List<Path> expiryRecords(Path table) {
    return ExpiryRecordFiles.of(table);
  }

  private static long newest(int n) {
    return versions.get(versions.size() - n);
  }

  private static List<String> sdkLeaves(UnaryOperator<OraclePolicy.Builder> sdk) {
    return TableTwins.filesTheSdkLeaves(pristine, workDir.resolve("sdk-" + copies.incrementAndGet()), sdk.apply(OraclePolicy.builder()).build());
  }

  private static Path copy() {
    Path copy = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(pristine, copy);
    return copy;
  }
}
