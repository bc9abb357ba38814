package dev.lancemaintenance.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each scenario really writes the shapes the conformance suite relies on. */
class ConformanceScenariosIT {
  @TempDir Path dir;

  @Test
  void appendsLabelsACutoffAfterEveryVersion() {
    Scenario s = ConformanceScenarios.appends(dir);

    assertThat(s.table().versions()).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(s.instants()).containsOnlyKeys("after-v1", "after-v2", "after-v3", "after-v4", "after-v5");
    for (long v = 1; v < 5; v++) {
      assertThat(s.instant("after-v" + v))
          .isAfter(s.table().manifestTimestamp(v))
          .isBefore(s.table().manifestTimestamp(v + 1));
    }
  }

  @Test
  void blobsWriteSidecarsBesideTheirDataFiles() {
    Scenario s = ConformanceScenarios.blobs(dir);
    List<String> files = s.table().listFiles();

    // Payloads above the threshold: two in v1 (one directory), one each in v2 and v5.
    assertThat(files.stream().filter(f -> f.matches("data/[^/]+/[01]{32}\\.blob"))).hasSize(4);
    assertThat(files.stream().filter(f -> f.endsWith(".blob")).map(f -> f.substring(0, f.lastIndexOf('/'))).distinct())
        .hasSize(3);
    assertThat(files).allMatch(f -> !f.endsWith(".blob") || files.contains(f.substring(0, f.lastIndexOf('/')) + ".lance"));
    assertThat(s.table().countRows()).isEqualTo(2 + 1);
  }

  @Test
  void deletesWriteArrowAndBinDeletionFiles() {
    Scenario s = ConformanceScenarios.deletes(dir);
    List<String> files = s.table().listFiles();

    assertThat(files.stream().filter(f -> f.matches("_deletions/\\d+-\\d+-\\d+\\.arrow"))).hasSizeGreaterThanOrEqualTo(3);
    assertThat(files).anyMatch(f -> f.matches("_deletions/\\d+-\\d+-\\d+\\.bin"));
    assertThat(s.table().countRows()).isEqualTo(200 - 20 - 20 + 6000 - 5500 - 1);
  }

  @Test
  void indicesLeaveOneDirectoryPerBuild() {
    Scenario s = ConformanceScenarios.indices(dir);
    long indexDirs =
        s.table().listFiles().stream()
            .filter(f -> f.startsWith("_indices/"))
            .map(f -> f.split("/")[1])
            .distinct()
            .count();

    assertThat(indexDirs).isEqualTo(6);
  }

  @Test
  void compactionMergesTheHundredSmallDataFiles() {
    Scenario s = ConformanceScenarios.compaction(dir);

    assertThat(s.version("compacted")).isGreaterThan(s.version("last-append") + 2);
    long survivors =
        LongStream.rangeClosed(1, 100)
            .flatMap(v -> LongStream.of(LanceTableFixture.firstId(v), LanceTableFixture.firstId(v) + 1))
            .filter(id -> id % 7 != 0)
            .count();
    assertThat(s.table().countRows()).isEqualTo(survivors);
    assertThat(s.table().listFiles().stream().filter(f -> f.startsWith("data/"))).hasSize(101);
  }

  @Test
  void branchesWriteBranchOfBranchUnderTree() {
    Scenario s = ConformanceScenarios.branches(dir);

    assertThat(s.table().listFiles())
        .anyMatch(f -> f.startsWith("tree/b1/_versions/"))
        .anyMatch(f -> f.startsWith("tree/b2/_versions/"))
        .contains("_refs/branches/b1.json", "_refs/branches/b2.json");
    long forkSurvivors =
        LongStream.rangeClosed(1, 3)
            .flatMap(v -> LongStream.range(LanceTableFixture.firstId(v), LanceTableFixture.firstId(v) + 10))
            .filter(id -> id % 3 != 0)
            .count();
    assertThat(s.related("b2").countRows()).isEqualTo(forkSurvivors + 10);
  }

  @Test
  void shallowClonesStartAtTheClonedVersion() {
    Scenario s = ConformanceScenarios.shallowClone(dir);

    assertThat(s.related("clone-of-v1").versions()).containsExactly(1L, 2L);
    assertThat(s.related("clone-of-tag").versions()).containsExactly(2L, 3L);
    assertThat(s.related("clone-of-tag").listFiles()).anyMatch(f -> f.startsWith("_deletions/"));
  }

  @Test
  void v1ManifestsAreNamedByVersionNumber() {
    Scenario s = ConformanceScenarios.v1Manifests(dir);

    assertThat(s.table().listFiles())
        .contains("_versions/1.manifest", "_versions/4.manifest")
        .noneMatch(f -> f.matches("_versions/\\d{20}\\.manifest"));
  }

  @Test
  void plantedFilesHaveTheirAges() {
    Scenario s = ConformanceScenarios.plantedFiles(dir);

    assertThat(s.table().listFiles())
        .contains("data/planted-old.lance", "_versions/.tmp_planted_recent", "planted-fresh.lance");
    assertThat(s.table().modificationTime("data/planted-fresh.lance"))
        .isAfter(s.table().manifestTimestamp(s.version("latest")));
  }

  @Test
  void randomMixReadsBackInFull() {
    Scenario s = ConformanceScenarios.randomMix(dir, 42);

    assertThat(s.table().latestVersion()).isGreaterThanOrEqualTo(10);
    assertThat(ReadBack.snapshot(s.table().root()).unreadable()).isEmpty();
  }
}
