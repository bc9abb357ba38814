package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.rules.RetainLast;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/**
 * {@code retain_last} and {@code max_deletes} on every engine, against the official SDK 7.0.0.
 *
 * <p>{@code retain_last => N} has no SDK counterpart, but it is by definition the SDK's cleanup with
 * {@code before_version} lowered to the oldest of the N newest versions ({@link RetainLast}): each
 * case cleans one copy of the table with ours and a twin with the SDK and that bound, and asserts
 * the same files remain and every remaining version reads back. {@code max_deletes} runs are
 * checked the same way after the capped run and the run that finishes it.
 *
 * <p>One small table (eight versions: appends, a delete, a compaction) is written once; each case works on its own byte-identical copy. Engines subclass this with their own
 * action, as they do {@link CleanupSafetyTest}.
 */
public abstract class RetentionLimitsContract {
  @TempDir static Path workDir;

  private static Path pristine;
  private static List<Long> versions;
  private static Instant afterDelete;
  private static final AtomicInteger copies = new AtomicInteger();
  /** Time holds nothing back, so the version bounds decide. */
  private static final Instant FAR_AHEAD = Instant.now().plusSeconds(3_600);

  /** A cleanup action of the engine under test, with no policy set yet. */
  protected abstract CleanupAction newCleanup(String tableUri);

  @BeforeAll
  static void writeTable() throws InterruptedException {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("pristine"));
    table.append(10);
    table.append(10);
    table.append(10);
    long deleted = table.deleteWhere("id % 3 = 0");
    afterDelete = table.manifestTimestamp(deleted).plusMillis(1);
    Thread.sleep(5);
    table.compact();
    table.append(10);
    table.append(10);
    pristine = table.root();
    versions = table.versions();
    assertThat(versions).as("the fixture's versions: create, 3 appends, delete, compact, 2 appends").hasSize(8);
  }

  // ---------------------------------------------------------------- retain_last

  @Test
  void retainLastKeepsTheNewestVersionsWhateverTheirAge() {
    Path ours = sameAsSdk(
        action -> action.beforeTimestamp(FAR_AHEAD).retainLast(3),
        sdk -> sdk.beforeTimestamp(FAR_AHEAD).beforeVersion(newest(3)));

    assertThat(LanceTableFixture.open(ours).versions()).as("the 3 newest")
        .containsExactly(newest(3), newest(2), newest(1));
  }

  @Test
  void retainLastOnlyKeepsMoreThanBeforeVersion() {
    sameAsSdk(
        action -> action.beforeTimestamp(FAR_AHEAD).beforeVersion(3).retainLast(2),
        sdk -> sdk.beforeTimestamp(FAR_AHEAD).beforeVersion(3));
  }

  @Test
  void retainLastOnlyKeepsMoreThanOlderThan() {
    sameAsSdk(
        action -> action.beforeTimestamp(afterDelete).retainLast(5),
        sdk -> sdk.beforeTimestamp(afterDelete).beforeVersion(newest(5)));
  }

  @Test
  void aTaggedVersionOutsideTheNewestRefusesTheRunAsTheSdkDoes() {
    Path table = copy();
    LanceTableFixture.open(table).tag("first", 1);
    List<String> before = FileTimes.listFiles(table);

    assertThatThrownBy(() -> newCleanup(table.toString()).beforeTimestamp(FAR_AHEAD).retainLast(2).execute())
        .isInstanceOf(TaggedVersionsException.class)
        .hasMessageContaining("first");
    Path twin = copy();
    LanceTableFixture.open(twin).tag("first", 1);
    OracleOutcome sdk = LanceOracle.cleanup(
        twin, OraclePolicy.builder().beforeTimestamp(FAR_AHEAD).beforeVersion(newest(2)).build());
    assertThat(sdk).as("the SDK with the equivalent before_version").isInstanceOf(OracleOutcome.Failed.class);
    assertThat(FileTimes.listFiles(table)).as("files after the refused run").isEqualTo(before);
  }

  // ---------------------------------------------------------------- max_deletes

  @Test
  void aCappedRunThenAnUncappedOneLeaveWhatOneSdkCleanupLeaves() {
    Path table = copy();
    CleanupResult capped = newCleanup(table.toString())
        .beforeTimestamp(afterDelete).maxDeletes(2).execute();

    assertThat(capped.counters().deletesAttempted()).as("deletes of the capped run").isEqualTo(2);
    assertThat(capped.counters().deferredDeletes()).as("deferred_deletes").isPositive();
    assertThat(capped.counters().manifestFilesRemoved()).as("manifests removed by a capped run").isZero();
    assertRetainedVersionsReadBack(table, afterDelete);

    newCleanup(table.toString()).beforeTimestamp(afterDelete).execute();
    assertThat(FileTimes.listFiles(table)).as("files left by the capped run and the next, and by one SDK cleanup")
        .isEqualTo(sdkLeaves(sdk -> sdk.beforeTimestamp(afterDelete)));
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void aBudgetThatCoversTheFilesReleasesAsManyManifestsAsItHasLeft() {
    Path probe = copy();
    CleanupCounters all = newCleanup(probe.toString())
        .beforeTimestamp(FAR_AHEAD).dryRun(true).execute().counters();
    long files = all.deletesAttempted() - all.manifestFilesRemoved();
    assertThat(all.manifestFilesRemoved()).as("expired manifests").isGreaterThan(1);
    Path table = copy();

    CleanupResult capped = newCleanup(table.toString())
        .beforeTimestamp(FAR_AHEAD).maxDeletes(files + 1).execute();

    assertThat(capped.counters().manifestFilesRemoved()).as("manifests within the budget").isEqualTo(1);
    assertThat(capped.counters().deferredDeletes()).as("deferred_deletes").isEqualTo(all.manifestFilesRemoved() - 1);
    assertRetainedVersionsReadBack(table, FAR_AHEAD);
    newCleanup(table.toString()).beforeTimestamp(FAR_AHEAD).execute();
    assertThat(FileTimes.listFiles(table)).as("files left after the run that finishes it")
        .isEqualTo(sdkLeaves(sdk -> sdk.beforeTimestamp(FAR_AHEAD)));
  }

  @Test
  void aCappedDryRunCountsWhatTheCappedRunWouldDeferAndDeletesNothing() {
    Path table = copy();
    List<String> before = FileTimes.listFiles(table);

    CleanupResult dry = newCleanup(table.toString())
        .beforeTimestamp(afterDelete).maxDeletes(1).dryRun(true).execute();

    assertThat(dry.counters().deletesAttempted()).as("files it would delete").isEqualTo(1);
    assertThat(dry.counters().deferredDeletes()).as("deferred_deletes").isPositive();
    assertThat(FileTimes.listFiles(table)).isEqualTo(before);
  }

  // ---------------------------------------------------------------- helpers

  /** The {@code n}-th newest version of the fixture (1: the latest). */
  private static long newest(int n) {
    return versions.get(versions.size() - n);
  }

  /** Cleans a copy with ours and a twin with the SDK; asserts the same files remain and read back. */
  private Path sameAsSdk(UnaryOperator<CleanupAction> ours, UnaryOperator<OraclePolicy.Builder> sdk) {
    Path table = copy();
    ours.apply(newCleanup(table.toString())).execute();
    assertThat(FileTimes.listFiles(table)).as("files left by ours and by the SDK").isEqualTo(sdkLeaves(sdk));
    KeptManifests.assertEveryManifestReadsBack(table);
    return table;
  }

  private static List<String> sdkLeaves(UnaryOperator<OraclePolicy.Builder> sdk) {
    return TableTwins.filesTheSdkLeaves(pristine, workDir.resolve("copy-" + copies.incrementAndGet()), sdk.apply(OraclePolicy.builder()).build());
  }

  /** Every version a run with this cutoff keeps (the latest, the younger ones) reads as before. */
  private static void assertRetainedVersionsReadBack(Path table, Instant cutoff) {
    LanceTableFixture fixture = LanceTableFixture.open(pristine);
    Map<Long, TableContent> expected = new TreeMap<>();
    Map<Long, TableContent> actual = new TreeMap<>();
    List<Long> retained = new ArrayList<>();
    for (long version : versions) {
      if (version == versions.get(versions.size() - 1) || !fixture.manifestTimestamp(version).isBefore(cutoff)) {
        retained.add(version);
        expected.put(version, ReadBack.read(pristine, Ref.ofMain(version)));
        actual.put(version, ReadBack.read(table, Ref.ofMain(version)));
      }
    }
    assertThat(actual).as("retained versions %s read back", retained).isEqualTo(expected);
    assertThat(actual.values()).allMatch(content -> content instanceof TableContent.Readable);
  }

  private static Path copy() {
    Path copy = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(pristine, copy);
    return copy;
  }
}
