package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.UndeletableFile;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
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

  private static Path pristine;
  private static Instant afterV2;
  private static final AtomicInteger copies = new AtomicInteger();

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
    pristine = table.root();
  }

  @Test
  void aFailedDeleteExitsWithItsOwnCodeAndShowsInTheJson() {
    Path table = copy();
    try (UndeletableFile ignored = UndeletableFile.make(firstVersionsTransaction(table))) {
      CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

      assertThat(run.exitCode()).as("%s", run).isEqualTo(MaintenanceCli.EXIT_FAILED_DELETES);
      assertThat(run.json().get("failed_deletes").asLong()).as("failed_deletes").isEqualTo(1);
      assertThat(run.json().get("old_versions").asLong()).as("no manifest removed").isZero();
      assertThat(run.err()).as("stderr").contains("1 deletes failed in " + table);
    }
  }

  @Test
  void aFailedDeleteShowsInTheTextResult() {
    Path table = copy();
    try (UndeletableFile ignored = UndeletableFile.make(firstVersionsTransaction(table))) {
      CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s");

      assertThat(run.exitCode()).as("%s", run).isEqualTo(MaintenanceCli.EXIT_FAILED_DELETES);
      assertThat(run.out()).as("%s", run).containsPattern("failed_deletes\\s+1");
    }
  }

  /** The transaction file of version 1 (read version 0), which {@code --older-than 0s} removes. */
  private static Path firstVersionsTransaction(Path table) {
    return files(table).stream()
        .filter(path -> path.startsWith("_transactions/0-"))
        .map(table::resolve)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void cleanupPrintsOneJsonObjectWithSnakeCaseCountersAndExitsZero() {
    Path table = copy();

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    JsonNode json = run.json();
    assertThat(fieldNames(json))
        .containsExactly(
            "table", "mode", "old_versions", "bytes_removed", "data_files_removed", "deletion_files_removed",
            "index_files_removed", "transaction_files_removed", "manifest_files_removed", "other_files_removed",
            "failed_deletes", "read_version", "duration_ms");
    assertThat(json.get("mode").asText()).isEqualTo("execute");
    assertThat(json.get("old_versions").asLong()).as("v1..v4 removed").isEqualTo(4);
    assertThat(json.get("transaction_files_removed").asLong()).isEqualTo(4);
    assertThat(json.get("read_version").asLong()).isEqualTo(5);
    assertThat(json.get("failed_deletes").asLong()).isZero();
    assertThat(json.get("bytes_removed").asLong()).isPositive();
  }

  @Test
  void plainTextOutputNamesTheTableAndEveryCounter() {
    CliRun run = CliRun.of("cleanup", pristine.toString(), "--older-than", "0s", "--dry-run");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.out()).contains("Dry run of cleanup of").contains(pristine.toString()).contains("old_versions");
    assertThat(run.out()).containsPattern("old_versions\\s+4");
  }

  @Test
  void taggedOldVersionRefusesWithExitOneNamingTableAndTag() {
    Path table = copy();
    LanceTableFixture.open(table).tag("keep-me", 1);
    TreeSet<String> before = files(table);

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--json");

    assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).contains(table.toString()).contains("keep-me");
    assertThat(run.json().get("error").asText()).contains("keep-me");
    assertThat(files(table)).as("a refused run deletes nothing").isEqualTo(before);
  }

  @Test
  void taggedOldVersionIsKeptWithNoErrorIfTaggedOldVersions() {
    Path table = copy();
    LanceTableFixture.open(table).tag("keep-me", 1);

    CliRun run = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--no-error-if-tagged-old-versions", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("old_versions").asLong()).as("v2..v4 removed, tagged v1 kept").isEqualTo(3);
  }

  @Test
  void dryRunJsonListsEveryFileARealRunDeletesWithKindBytesAndReason() {
    Path table = copy();
    TreeSet<String> before = files(table);

    CliRun dry = CliRun.of("cleanup", table.toString(), "--older-than", "0s", "--dry-run", "--json");

    assertThat(dry.exitCode()).as("%s", dry).isZero();
    assertThat(files(table)).as("a dry run deletes nothing").isEqualTo(before);
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
    deleted.removeAll(files(table));
    assertThat(listed).as("dry-run rows vs what the real run deleted").isEqualTo(deleted);
  }

  @ParameterizedTest(name = "--older-than {0} removes {1} versions")
  @CsvSource({"7d, 0", "36h, 0", "0s, 4", "2000-01-01T00:00:00Z, 0", "2100-01-01T00:00:00Z, 4"})
  void olderThanTakesDurationsAndInstants(String olderThan, long removed) {
    CliRun run = CliRun.of("cleanup", pristine.toString(), "--older-than", olderThan, "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("old_versions").asLong()).isEqualTo(removed);
  }

  @Test
  void beforeTimestampMillisRemovesVersionsStrictlyOlder() {
    CliRun run = CliRun.of(
        "cleanup", pristine.toString(), "--before-timestamp-millis", Long.toString(afterV2.toEpochMilli()), "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("old_versions").asLong()).as("v1 and v2").isEqualTo(2);
  }

  @Test
  void beforeVersionAppliesTogetherWithTheTimeWindow() {
    CliRun both = CliRun.of("cleanup", pristine.toString(), "--older-than", "0s", "--before-version", "3", "--dry-run", "--json");
    CliRun defaultWindow = CliRun.of("cleanup", pristine.toString(), "--before-version", "3", "--dry-run", "--json");

    assertThat(both.json().get("old_versions").asLong()).as("below v3 and older than now").isEqualTo(2);
    assertThat(defaultWindow.json().get("old_versions").asLong()).as("below v3 but within the default 7 days").isZero();
  }

  private static Path copy() {
    Path copy = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(pristine, copy);
    return copy;
  }

  private static TreeSet<String> files(Path table) {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }
}
