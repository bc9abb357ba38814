package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LeaseHolder;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.UndeletableFile;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cleanup} from the command line on a real table of five versions (appends and a delete):
 * exit codes, JSON counters and dry-run rows, and every way of giving the cutoff. Dry runs share
 * the one table; runs that delete get their own copy.
 */
class CleanupCommandIT {
  @TempDir static Path workDir;

  private static PristineTable pristine;
  private static Instant afterV2;

  @BeforeAll
  static void writeTable() throws InterruptedException {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("pristine"));
    table.append(10);
    long v2 = table.append(10);
    afterV2 = table.manifestTimestamp(v2).plusMillis(1);
    Thread.sleep(5);
    table.deleteWhere("id % 2 = 0");
    table.append(10);
    table.append(10);
    pristine = new PristineTable(table);
  }

  @Test
  void aFailedDeleteExitsWithItsOwnCodeAndShowsInTheJson() {
    Path table = pristine.copy();
    try (UndeletableFile ignored = UndeletableFile.make(firstVersionsTransaction(table))) {
      CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

      assertThat(run.exitCode()).as("%s", run).isEqualTo(MaintenanceCli.EXIT_FAILED_DELETES);
      assertThat(run.json().get("failed_deletes").asLong()).as("failed_deletes").isEqualTo(1);
      assertThat(run.json().get("old_versions").asLong()).as("no manifest removed").isZero();
      assertThat(run.err()).as("stderr").contains("1 deletes failed in " + table);
    }
  }

  @Test
  void progressLinesGoToStderrAndTheLastOneCountsWhatTheResultDoes() {
    Path table = pristine.copy();

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    JsonNode result = run.json(); // stdout is the one JSON object, no progress in it
    long files = 0;
    for (String kind : List.of("data", "deletion", "index", "transaction", "manifest", "other")) {
      files += result.get(kind + "_files_removed").asLong();
    }
    assertThat(files).as("the run removed files").isPositive();
    List<String> lines = run.err().lines().filter(line -> line.startsWith("lance-maintenance progress: ")).toList();
    assertThat(lines).as("%s", run).isNotEmpty();
    assertThat(lines.get(lines.size() - 1))
        .startsWith("lance-maintenance progress: [6/6 release manifests] manifests 5/5, ")
        .contains(", removed " + files + "/" + files + " files, ")
        .contains(", " + ProgressLine.bytes(result.get("bytes_removed").asLong()) + " freed");
  }

  @Test
  void noProgressTurnsTheLinesOff() {
    CliRun run = CliRun.of("cleanup", pristine.copy().toString(), "--dry-run", "--no-progress");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.err()).as("%s", run).doesNotContain("progress");
  }

  @Test
  void aFailedDeleteShowsInTheTextResult() {
    Path table = pristine.copy();
    try (UndeletableFile ignored = UndeletableFile.make(firstVersionsTransaction(table))) {
      CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s");

      assertThat(run.exitCode()).as("%s", run).isEqualTo(MaintenanceCli.EXIT_FAILED_DELETES);
      assertThat(run.out()).as("%s", run).containsPattern("failed_deletes\\s+1");
    }
  }

  /** The transaction file of version 1 (read version 0), which {@code --older-than 0s} removes. */
  private static Path firstVersionsTransaction(Path table) {
    return PristineTable.files(table).stream()
        .filter(path -> path.startsWith("_transactions/0-"))
        .map(table::resolve)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void cleanupPrintsOneJsonObjectWithSnakeCaseCountersAndExitsZero() {
    Path table = pristine.copy();

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    JsonNode json = run.json();
    assertThat(fieldNames(json))
        .containsExactly(
            "table", "mode", "old_versions", "bytes_removed", "data_files_removed", "deletion_files_removed",
            "index_files_removed", "transaction_files_removed", "manifest_files_removed", "other_files_removed",
            "failed_deletes", "deferred_deletes", "read_version", "duration_ms", "mark_mode", "manifests_read", "resumed_from");
    assertThat(json.get("mode").asText()).isEqualTo("execute");
    assertThat(json.get("mark_mode").asText()).isEqualTo("full");
    assertThat(json.get("manifests_read").asLong()).as("v1..v5 decoded").isEqualTo(5);
    assertThat(json.get("old_versions").asLong()).as("v1..v4 removed").isEqualTo(4);
    assertThat(json.get("transaction_files_removed").asLong()).isEqualTo(4);
    assertThat(json.get("read_version").asLong()).isEqualTo(5);
    assertThat(json.get("failed_deletes").asLong()).isZero();
    assertThat(json.get("bytes_removed").asLong()).isPositive();
  }

  @Test
  void plainTextOutputNamesTheTableAndEveryCounter() {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "0s", "--dry-run");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.out()).contains("Dry run of cleanup of").contains(pristine.root().toString()).contains("old_versions");
    assertThat(run.out()).containsPattern("old_versions\\s+4");
  }

  @Test
  void taggedOldVersionRefusesWithExitOneNamingTableAndTag() {
    Path table = pristine.copy();
    LanceTableFixture.open(table).tag("keep-me", 1);
    TreeSet<String> before = PristineTable.files(table);

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).contains(table.toString()).contains("keep-me");
    assertThat(run.json().get("error").asText()).contains("keep-me");
    assertThat(PristineTable.files(table)).as("a refused run deletes nothing").isEqualTo(before);
  }

  @Test
  void taggedOldVersionIsKeptWithNoErrorIfTaggedOldVersions() {
    Path table = pristine.copy();
    LanceTableFixture.open(table).tag("keep-me", 1);

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--no-error-if-tagged-old-versions", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("old_versions").asLong()).as("v2..v4 removed, tagged v1 kept").isEqualTo(3);
  }

  @Test
  void dryRunJsonListsEveryFileARealRunDeletesWithKindBytesAndReason() {
    Path table = pristine.copy();
    TreeSet<String> before = PristineTable.files(table);

    CliRun dry = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--dry-run", "--json");

    assertThat(dry.exitCode()).as("%s", dry).isZero();
    assertThat(PristineTable.files(table)).as("a dry run deletes nothing").isEqualTo(before);
    JsonNode json = dry.json();
    assertThat(json.get("mode").asText()).isEqualTo("dry_run");
    TreeSet<String> listed = new TreeSet<>();
    long bytes = 0;
    for (JsonNode file : json.get("files")) {
      assertThat(fieldNames(file)).containsExactly("path", "kind", "bytes", "reason");
      assertThat(file.get("reason").asText()).isEqualTo("expired_version");
      listed.add(file.get("path").asText());
      bytes += file.get("bytes").asLong();
    }
    assertThat(bytes).as("bytes of the rows add up to bytes_removed").isEqualTo(json.get("bytes_removed").asLong());

    CliRun real = CliRun.of("cleanup", table.toString(), "--older-than", "0s");
    assertThat(real.exitCode()).as("%s", real).isZero();
    TreeSet<String> deleted = new TreeSet<>(before);
    deleted.removeAll(PristineTable.files(table));
    assertThat(listed).as("dry-run rows vs what the real run deleted").isEqualTo(deleted);
  }

  @ParameterizedTest(name = "--older-than {0} removes {1} versions")
  @CsvSource({"7d, 0", "36h, 0", "0s, 4", "2000-01-01T00:00:00Z, 0", "2100-01-01T00:00:00Z, 4"})
  void olderThanTakesDurationsAndInstants(String olderThan, long removed) {
    CliRun run = CliRun.of("cleanup", pristine.root().toString(), "--older-than", olderThan, "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("old_versions").asLong()).isEqualTo(removed);
  }

  @Test
  void beforeTimestampMillisRemovesVersionsStrictlyOlder() {
    CliRun run = CliRun.of(
        "cleanup", pristine.root().toString(), "--before-timestamp-millis", Long.toString(afterV2.toEpochMilli()), "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("old_versions").asLong()).as("v1 and v2").isEqualTo(2);
  }

  @Test
  void retainLastKeepsTheNewestAndMaxDeletesDefersTheRest() {
    CliRun kept = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "0s", "--retain-last", "3", "--dry-run", "--json");
    CliRun capped = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "0s", "--max-deletes", "1", "--dry-run", "--json");

    assertThat(kept.json().get("old_versions").asLong()).as("%s: all but the 3 newest", kept).isEqualTo(2);
    assertThat(capped.json().get("deferred_deletes").asLong()).as("%s: deferred_deletes", capped).isPositive();
    assertThat(capped.json().get("old_versions").asLong()).as("manifests of a capped run").isZero();
  }

  @Test
  void beforeVersionAppliesTogetherWithTheTimeWindow() {
    CliRun both = CliRun.of("cleanup", pristine.root().toString(), "--older-than", "0s", "--before-version", "3", "--dry-run", "--json");
    CliRun defaultWindow = CliRun.of("cleanup", pristine.root().toString(), "--before-version", "3", "--dry-run", "--json");

    assertThat(both.json().get("old_versions").asLong()).as("below v3 and older than now").isEqualTo(2);
    assertThat(defaultWindow.json().get("old_versions").asLong()).as("below v3 but within the default 7 days").isZero();
  }

  @Test
  void aCleanupWhileAnotherRunHoldsTheLeaseExitsOneWithOneLineNamingTheHolder() throws Exception {
    Path table = pristine.copy();
    TreeSet<String> before = PristineTable.files(table);
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.toString()), StorageConf.defaults());
        TableLease held = Leases.holdElsewhere(storage, Instant.now(), Duration.ofDays(1))) {

      CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

      assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
      assertThat(run.err().strip().lines()).as("stderr").singleElement().asString()
          .contains(table.toString())
          .contains("run elsewhere on host other-host (pid 4242)");
      assertThat(run.json().get("error").asText()).contains("holds the table's lease");
      assertThat(PristineTable.files(table)).as("nothing deleted").isEqualTo(before);
      assertThat(CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--dry-run").exitCode())
          .as("a dry run beside the holder").isZero();
    }
  }

  @Test
  void spillDirTakesTheRunsSpillAndTheNextRunThereRemovesTheSpillOfADeadRun() throws Exception {
    Path spills = workDir.resolve("spills");
    Path dead = java.nio.file.Files.createDirectories(spills.resolve("lance-cleanup-dead"));
    LeaseHolder self = LeaseHolder.ofOwner("spill");
    java.nio.file.Files.writeString(dead.resolve("owner"),
        Leases.deadPid() + "\n" + self.processStartMillis() + "\n" + self.machine() + "\n");

    CliRun run = CliRun.of("cleanup", pristine.copy().toString(), "--older-than", "0s", "--spill-dir", spills.toString());

    assertThat(run.exitCode()).as("%s", run).isZero();
    try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(spills)) {
      assertThat(left.toList()).as("the dead run's spill went, and this run's own").isEmpty();
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }
}
