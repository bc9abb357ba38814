package dev.lancemaintenance.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalStorageReport;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.StorageReportTable;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.PristineTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The storage report on an SDK-written table with a tag, a branch, a deletion and unreferenced
 * files: each window's prediction is what our cleanup with that window then removes, and what the
 * official SDK 7.0.0's cleanup removes from the same files (restored at the table's own path); the
 * categories add up to the listing.
 */
class StorageReportIT {
  private static final TableStorageFactory STORES = HadoopTableStorage.factory(StorageConf.defaults());

  @TempDir static Path templateDir;
  private static PristineTable pristine;
  /** The report's clock: whole milliseconds, as the SDK takes its cut-off. */
  private static Instant now;
  /** A window whose cut-off falls between versions 3 and 4. */
  private static Duration between3And4;

  @BeforeAll
  static void writeTemplate() {
    LanceTableFixture template = StorageReportTable.write(templateDir.resolve("t"));
    pristine = PristineTable.keep(template.root(), templateDir.resolve("pristine"));
    now = Instant.ofEpochMilli(Instant.now().plusSeconds(60).toEpochMilli());
    long t3 = template.manifestTimestamp(3).toEpochMilli();
    long t4 = template.manifestTimestamp(4).toEpochMilli();
    between3And4 = Duration.ofMillis(now.toEpochMilli() - (t3 + t4) / 2);
  }

  private static List<Duration> windows() {
    return List.of(Duration.ZERO, between3And4, Duration.ofDays(30));
  }

  private static LocalCleanupAction cleanup(Path table) {
    return new LocalCleanupAction(TableLocation.of(table.toUri().toString()), STORES, Clock.fixed(now, ZoneOffset.UTC));
  }

  private static StorageReport report(Path table, boolean errorIfTagged) {
    LocalCleanupAction policy = cleanup(table).errorIfTaggedOldVersions(errorIfTagged);
    return new LocalStorageReport(TableLocation.of(table.toUri().toString()), STORES).windows(windows())
        .report(policy.request());
  }

  /** The table as built, at its own path: a branch names its parent by path (TableTwins). */
  private static Path table() {
    pristine.restore();
    return pristine.table();
  }

  @ParameterizedTest(name = "window number {0}")
  @ValueSource(ints = {0, 1, 2})
  void eachWindowPredictsWhatOurCleanupAndTheSdksThenRemove(int window) {
    pristine.restore();
    StorageReport.WindowResult predicted = report(pristine.table(), false).windows().get(window);
    Instant cutoff = now.minus(windows().get(window));

    pristine.restore();
    CleanupResult ours = cleanup(pristine.table()).errorIfTaggedOldVersions(false).beforeTimestamp(cutoff).execute();
    pristine.restore();
    OracleStats sdk = LanceOracle.cleanup(pristine.table(),
        OraclePolicy.builder().beforeTimestamp(cutoff).errorIfTaggedOldVersions(false).build()).stats();

    assertThat(predicted.refusal()).as("refusal").isEmpty();
    assertThat(predicted.freed().bytes()).as("bytes freed: ours").isEqualTo(ours.counters().bytesRemoved())
        .as("bytes freed: the SDK's").isEqualTo(sdk.bytesRemoved());
    assertThat(predicted.freed().files()).as("files freed: ours").isEqualTo(filesRemoved(ours.counters()));
    assertThat(predicted.versionsRemoved()).as("versions removed: ours").isEqualTo(ours.counters().oldVersions())
        .as("versions removed: the SDK's").isEqualTo(sdk.oldVersions());
  }

  @Test
  void theWindowsDifferAsTheTableIsBuilt() {
    StorageReport report = report(table(), false);

    assertThat(report.windows().get(0).freed().bytes()).as("0s frees more than the window past version 3")
        .isGreaterThan(report.windows().get(1).freed().bytes());
    assertThat(report.windows().get(1).freed().bytes()).as("the window past version 3 frees more than 30d")
        .isGreaterThan(report.windows().get(2).freed().bytes());
    assertThat(report.windows().get(2).versionsRemoved()).as("30 days removes no version").isZero();
  }

  @Test
  void aWindowThatWouldRemoveATaggedVersionIsReportedAsRefused() {
    StorageReport report = report(table(), true);

    assertThat(report.windows().get(0).refusal()).as("0s reaches the tagged version 2")
        .hasValueSatisfying(reason -> assertThat(reason).contains("keep"));
    assertThat(report.windows().get(2).refusal()).as("30 days reaches nothing").isEmpty();
  }

  @Test
  void theCategoriesAddUpToEveryListedFile() throws Exception {
    Path table = table();
    StorageReport report = report(table, false);

    long listedBytes = 0;
    long listedFiles = 0;
    for (String managed : List.of("_versions", "_transactions", "_deletions", "_indices", "data")) {
      Path root = table.resolve(managed);
      if (Files.isDirectory(root)) {
        try (var files = Files.walk(root)) {
          for (Path file : files.filter(Files::isRegularFile).toList()) {
            listedFiles++;
            listedBytes += Files.size(file);
          }
        }
      }
    }
    FilesBytes counted = report.files().values().stream().reduce(FilesBytes.ZERO, FilesBytes::plus);
    assertThat(counted).as("files and bytes over every kind and category").isEqualTo(new FilesBytes(listedFiles, listedBytes));
    assertThat(report.files().get(new KindCategory(dev.lancemaintenance.format.FileKind.DATA, StorageCategory.LATEST)))
        .as("the latest version's data files").isNotNull();
  }

  @Test
  void unreferencedFilesAreReportedByAge() {
    StorageReport report = report(table(), false);

    assertThat(report.unverifiedByAge().get(AgeBucket.OLDER)).as("the file planted 40 days ago")
        .isEqualTo(new FilesBytes(1, StorageReportTable.PLANTED_BYTES));
    assertThat(report.unverifiedByAge().get(AgeBucket.UNDER_7D)).as("the file planted 2 days ago")
        .isEqualTo(new FilesBytes(1, StorageReportTable.PLANTED_BYTES));
  }

  @Test
  void theTagAndTheBranchShowWhatTheyHold() {
    StorageReport report = report(table(), false);

    assertThat(report.pins()).extracting(StorageReport.Pin::type, StorageReport.Pin::name, StorageReport.Pin::version)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("tag", "keep", 2L),
            org.assertj.core.groups.Tuple.tuple("branch", "b1", 3L));
    assertThat(report.pins()).allSatisfy(pin -> assertThat(pin.referenced().bytes()).as(pin.name()).isPositive());
  }

  private static long filesRemoved(CleanupCounters counters) {
    return counters.dataFilesRemoved() + counters.deletionFilesRemoved() + counters.indexFilesRemoved()
        + counters.transactionFilesRemoved() + counters.manifestFilesRemoved() + counters.otherFilesRemoved();
  }
}
