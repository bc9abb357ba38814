package dev.lancemaintenance.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of the fixture verbs on one shared table (the verbs only add, so each test reads a
 * different part of the same history).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LanceTableFixtureIT {


  private LanceTableFixture table;
  private LanceTableFixture branch;
  private long v1;
  private long deleteVersion;
  private long indexVersion;
  private long branchAppend;

  @BeforeAll
  void writeHistory(@TempDir Path dir) {
    table = LanceTableFixture.create(dir.resolve("t"));
    v1 = table.append(100);
    table.append(50);
    deleteVersion = table.deleteWhere("id % 10 = 0");
    table.update(LanceTableFixture.firstId(2), 5);
    indexVersion = table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    table.tag("first", v1);
    branch = table.createBranch("b1", deleteVersion);
    branchAppend = branch.append(20);
  }

  @Test
  void numbersVersionsOneByOneFromTheFirstWrite() {
    assertThat(v1).isEqualTo(1);
    assertThat(deleteVersion).isEqualTo(3);
    assertThat(indexVersion).isEqualTo(5);
    assertThat(table.versions()).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(table.latestVersion()).isEqualTo(5);
  }

  @Test
  void writesV2ManifestNamesTransactionsAndDataFiles() {
    List<String> files = table.listFiles();
    assertThat(files)
        .contains("_versions/18446744073709551614.manifest", "_versions/18446744073709551610.manifest")
        .contains("_refs/tags/first.json");
    assertThat(files.stream().filter(f -> f.matches("_transactions/\\d+-[0-9a-f-]+\\.txn")))
        .hasSizeGreaterThanOrEqualTo(5);
    assertThat(files.stream().filter(f -> f.matches("data/[01]{24}[0-9a-f]{26}\\.lance")))
        .hasSizeGreaterThanOrEqualTo(3);
    assertThat(files.stream().filter(f -> f.matches("_deletions/\\d+-\\d+-\\d+\\.arrow")))
        .isNotEmpty();
    assertThat(files.stream().filter(f -> f.matches("_indices/[0-9a-f-]{36}/.+")))
        .isNotEmpty();
  }

  @Test
  void keepsRowCountsOfEveryVerb() {
    // 150 appended, 15 deleted (ids divisible by 10), 5 updated in place of 5 existing rows.
    assertThat(table.countRows()).isEqualTo(135);
    assertThat(branch.countRows()).isEqualTo(135 + 20);
  }

  @Test
  void continuesBranchVersionsFromTheForkPoint() {
    assertThat(branchAppend).isEqualTo(deleteVersion + 1);
    assertThat(branch.latestVersion()).isEqualTo(deleteVersion + 1);
    assertThat(table.listFiles())
        .anyMatch(f -> f.startsWith("tree/b1/_versions/"))
        .anyMatch(f -> f.matches("tree/b1/data/.+\\.lance"))
        .contains("_refs/branches/b1.json");
  }

  @Test
  void reportsManifestTimestampsInCommitOrder() {
    Instant first = table.manifestTimestamp(1);
    Instant last = table.manifestTimestamp(5);
    assertThat(first).isBefore(last).isAfter(Instant.now().minus(Duration.ofHours(1)));
  }

  @Test
  void plantsAndAgesUnreferencedFiles() {
    Instant old = Instant.parse("2020-01-01T00:00:00Z");
    table.plant("data/planted.lance", "x".getBytes(StandardCharsets.UTF_8), old);
    assertThat(table.modificationTime("data/planted.lance")).isEqualTo(old);
    table.setModificationTime("data/planted.lance", old.plusSeconds(60));
    assertThat(table.modificationTime("data/planted.lance")).isEqualTo(old.plusSeconds(60));
  }
}
