package dev.lancemaintenance.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/** The oracle harness works on real tables: twins, SDK cleanup, read-back. */
class OracleHarnessIT {
  @TempDir Path dir;

  @Test
  void sdkCleanupAfterV1OfOverwriteRemovesExactlyV1ManifestDataAndTransaction() {
    Scenario scenario = ConformanceScenarios.overwrite(dir);
    LanceTableFixture table = scenario.table();
    List<String> before = table.listFiles();

    OracleOutcome outcome =
        LanceOracle.cleanup(table.root(), OraclePolicy.builder().beforeTimestamp(scenario.instant("after-v1")).build());

    List<String> removed = new ArrayList<>(before);
    removed.removeAll(table.listFiles());
    assertThat(removed)
        .as("files removed by the SDK")
        .hasSize(3)
        .contains("_versions/18446744073709551614.manifest")
        .anyMatch(f -> f.matches("_transactions/0-[0-9a-f-]+\\.txn"))
        .anyMatch(f -> f.startsWith("data/"));
    assertThat(outcome.stats().oldVersions()).isEqualTo(1);
    assertThat(outcome.stats().dataFilesRemoved()).isEqualTo(1);
    assertThat(outcome.stats().transactionFilesRemoved()).isEqualTo(1);
  }

  @Test
  void twinReadsBackLikeTheReferenceAfterTheSameCleanup() {
    Scenario scenario = ConformanceScenarios.overwrite(dir);
    Path reference = scenario.table().root();
    Path twin = dir.resolve("twin");
    TableTwins.copy(reference, twin);
    OraclePolicy policy = OraclePolicy.builder().beforeTimestamp(scenario.instant("after-v2")).build();

    LanceOracle.cleanup(reference, policy);
    LanceOracle.cleanup(twin, policy);

    assertThat(FileTimes.listFiles(twin)).isEqualTo(FileTimes.listFiles(reference));
    assertThat(ReadBack.snapshot(twin)).isEqualTo(ReadBack.snapshot(reference));
    assertThat(ReadBack.snapshot(twin).entries()).containsOnlyKeys("main/v3");
    assertThat(ReadBack.read(twin, Ref.ofMain(3)))
        .isInstanceOfSatisfying(TableContent.Readable.class, r -> assertThat(r.rows()).isEqualTo(20));
  }

  @Test
  void reportsTheSdkErrorWhenATaggedVersionIsOlderThanTheCutoff() {
    Scenario scenario = ConformanceScenarios.tags(dir);
    List<String> before = scenario.table().listFiles();

    OracleOutcome outcome =
        LanceOracle.cleanup(
            scenario.table().root(),
            OraclePolicy.builder().beforeTimestamp(scenario.instant("after-v4")).errorIfTaggedOldVersions(true).build());

    assertThat(outcome).isInstanceOf(OracleOutcome.Failed.class);
    assertThat(((OracleOutcome.Failed) outcome).message()).contains("tagged version");
    assertThat(scenario.table().listFiles()).isEqualTo(before);
  }

  @Test
  void reportsAVersionWhoseDataFileIsGoneAsUnreadable() throws Exception {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("broken"));
    table.append(10);
    List<String> v1Data = table.listFiles().stream().filter(f -> f.startsWith("data/")).toList();
    table.append(10);
    Files.delete(table.resolve(v1Data.get(0)));

    assertThat(ReadBack.failureReading(table.root(), Ref.ofMain(1)))
        .hasValueSatisfying(text -> assertThat(text).contains(v1Data.get(0).substring("data/".length())));
    assertThat(ReadBack.snapshot(table.root()).unreadable()).containsOnlyKeys("main/v1", "main/v2");
  }

  @Test
  void swappedTwinOfABranchTableCleansLikeTheReferenceAtTheSamePath() {
    Scenario scenario = ConformanceScenarios.branches(dir);
    Path home = scenario.table().root();
    Path pristine = dir.resolve("pristine");
    TableTwins.copy(home, pristine);
    OraclePolicy policy = OraclePolicy.builder().beforeTimestamp(scenario.instant("after-v4")).build();

    OracleOutcome reference = LanceOracle.cleanup(home, policy);
    List<String> referenceFiles = FileTimes.listFiles(home);
    TableSnapshot referenceSnapshot = ReadBack.snapshot(home);
    TableTwins.swap(home, pristine);
    OracleOutcome again = LanceOracle.cleanup(home, policy);

    assertThat(again).isEqualTo(reference);
    assertThat(FileTimes.listFiles(home)).isEqualTo(referenceFiles);
    assertThat(ReadBack.snapshot(home)).isEqualTo(referenceSnapshot);
    assertThat(referenceSnapshot.entries())
        .as("the SDK keeps main's fork point v2 for b1")
        .containsKey("main/v" + scenario.version("fork-b1"));
    assertThat(referenceSnapshot.unreadable()).isEmpty();
  }
}
