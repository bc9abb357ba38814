package dev.lancemaintenance.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.FaultyTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code record_files => true} on the local engine: the parts the sweep wrote list exactly the
 * files that went (the SDK's cleanup leaves the same files on a twin), add up to the result's
 * counters, and are named by the run's end record; a run killed in the release of the manifests
 * leaves the finished sweep's part whole and none of the release. (Spark and Flink:
 * {@code SparkRecordFilesIT}, {@code FlinkMaintenanceHistoryIT}.)
 */
class RecordFilesIT {
  @TempDir Path dir;

  private LanceTableFixture table() {
    return RunTables.threeVersionsToExpire(dir);
  }

  private static LocalCleanupAction cleanup(LanceTableFixture table, TableStorageFactory stores, Instant cutoff) {
    return new LocalCleanupAction(TableLocation.of(table.uri()), stores, Clock.systemUTC()).beforeTimestamp(cutoff).recordFiles(true);
  }

  private static TableStorageFactory stores() {
    return HadoopTableStorage.factory(StorageConf.defaults());
  }

  /** The run's entry, and the files its whole parts list, sweep first. */
  private static List<CandidateFile> recordedFiles(LanceTableFixture table, RunEntry run) {
    String files = (String) run.values().get(RunEntry.COLUMNS.indexOf(new RunEntry.Column("files", RunEntry.ColumnType.STRING)));
    List<CandidateFile> recorded = new ArrayList<>();
    try (TableStorage storage = stores().open(TableLocation.of(table.uri()))) {
      new RecordedFiles(files).read(storage).forEach(part -> recorded.addAll(part.files()));
    }
    return recorded;
  }

  private static RunEntry lastRun(LanceTableFixture table) {
    try (TableStorage storage = stores().open(TableLocation.of(table.uri()))) {
      return new RunRecords(storage).history(1, Clock.systemUTC()).get(0);
    }
  }

  @Test
  void theRecordedFilesAddUpToTheResultAndTheEndRecordCountsTheirParts() {
    LanceTableFixture table = table();

    CleanupResult result = cleanup(table, stores(), Instant.now()).execute();

    RunEntry run = lastRun(table);
    CleanupCounters recorded = CleanupCounters.ZERO;
    for (CandidateFile file : recordedFiles(table, run)) {
      recorded = recorded.record(file);
    }
    assertThat(result.counters().oldVersions()).as("the run removed versions").isEqualTo(3);
    assertThat(recorded).as("the counters of the recorded files").isEqualTo(result.counters());
    assertThat(run.end().orElseThrow().fileParts()).as("a part for the sweep and one for the manifests").hasValue(2);
  }

  @Test
  void theRecordedFilesAreTheFilesThatWentAndTheSdkRemovesTheSame() {
    LanceTableFixture table = table();
    Path pristine = dir.resolve("pristine");
    TableTwins.copy(table.root(), pristine);
    TreeSet<String> before = new TreeSet<>(FileTimes.listFiles(table.root()));
    Instant cutoff = Instant.now();

    cleanup(table, stores(), cutoff).execute();

    TreeSet<String> after = new TreeSet<>(FileTimes.listFiles(table.root()));
    TreeSet<String> gone = new TreeSet<>(before);
    gone.removeAll(after);
    assertThat(recordedFiles(table, lastRun(table))).extracting(CandidateFile::path).containsExactlyInAnyOrderElementsOf(gone);
    assertThat(after).as("the same files as the SDK's cleanup on a twin")
        .containsExactlyElementsOf(TableTwins.filesTheSdkLeaves(pristine, dir.resolve("sdk"),
            OraclePolicy.builder().beforeTimestamp(cutoff).build()));
  }

  @Test
  void aRunKilledReleasingTheManifestsLeavesTheSweepsPartWholeAndNoneOfTheRelease() {
    LanceTableFixture table = table();
    TreeSet<String> before = new TreeSet<>(FileTimes.listFiles(table.root()));
    FaultyTableStorage.Faults faults = new FaultyTableStorage.Faults().crashOnDeleteOf(path -> path.startsWith("_versions/"));

    assertThatThrownBy(() -> cleanup(table, FaultyTableStorage.factory(faults), Instant.now()).parallelism(1).execute())
        .isInstanceOf(FaultyTableStorage.SimulatedCrash.class);

    TreeSet<String> gone = new TreeSet<>(before);
    gone.removeAll(FileTimes.listFiles(table.root()));
    List<CandidateFile> recorded = recordedFiles(table, lastRun(table));
    assertThat(gone).as("the sweep finished, the manifests stayed").isNotEmpty().noneMatch(path -> path.startsWith("_versions/"));
    assertThat(recorded).extracting(CandidateFile::path).containsExactlyInAnyOrderElementsOf(gone);
  }
}
