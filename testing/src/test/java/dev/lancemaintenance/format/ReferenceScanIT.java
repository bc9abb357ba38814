package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cleanup's file-naming scan ({@link ManifestReader#scan}) is a shortcut past the full decode;
 * on every manifest of every conformance table, main and branches, it must name exactly the files
 * the full decode names, with the same version and timestamp.
 */
class ReferenceScanIT {
  @TempDir static Path workDir;

  static Stream<Function<Path, Scenario>> scenarios() {
    return Stream.of(
        ConformanceScenarios::deletes,
        ConformanceScenarios::indices,
        ConformanceScenarios::compaction,
        ConformanceScenarios::branches,
        ConformanceScenarios::shallowClone,
        ConformanceScenarios::v1Manifests,
        dir -> ConformanceScenarios.randomMix(dir, 11));
  }

  @ParameterizedTest
  @MethodSource("scenarios")
  void scanNamesTheSameFilesAsTheFullDecode(Function<Path, Scenario> build) {
    Scenario scenario = build.apply(workDir);
    List<LanceTableFixture> tables = new ArrayList<>(List.of(scenario.table()));
    tables.addAll(scenario.related().values());
    for (LanceTableFixture fixture : tables) {
      TableLocation root = TableLocation.of(fixture.root().toString());
      try (TableStorage storage = new HadoopTableStorage(root, StorageConf.defaults())) {
        List<DatasetRef> datasets = new ArrayList<>(List.of(DatasetRef.MAIN));
        RefReader.listBranches(storage).forEach(branch -> datasets.add(branch.dataset()));
        for (DatasetRef dataset : datasets) {
          ReferenceScanner scanner = new ReferenceScanner(root, dataset);
          for (ManifestLocation location : VersionListing.list(storage, dataset)) {
            Manifest full = ManifestReader.read(storage, location);
            ScannedManifest scanned = ManifestReader.scan(storage, location, scanner);
            assertThat(scanned.references()).as("%s references", location.path())
                .isEqualTo(full.references(root, dataset));
            assertThat(scanned.version()).as("%s version", location.path()).isEqualTo(full.version());
            assertThat(scanned.timestampNanos()).as("%s timestamp", location.path()).isEqualTo(full.timestampNanos());
          }
        }
      }
    }
  }

  @Test
  void reusesTheFragmentsConsecutiveVersionsRepeat() {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("reuse"));
    for (int i = 0; i < 4; i++) {
      table.append(2);
    }
    // One of the two rows of the third fragment (written by version 3): a deletion file, not a drop.
    table.deleteWhere("id = " + LanceTableFixture.firstId(3));
    table.append(2);
    TableLocation root = TableLocation.of(table.root().toString());
    try (TableStorage storage = new HadoopTableStorage(root, StorageConf.defaults())) {
      ReferenceScanner scanner = new ReferenceScanner(root, DatasetRef.MAIN);
      Map<Long, ScannedManifest> byVersion = new HashMap<>();
      List<ManifestLocation> locations = new ArrayList<>(VersionListing.list(storage, DatasetRef.MAIN));
      locations.sort(Comparator.comparingLong(ManifestLocation::version));
      for (ManifestLocation location : locations) {
        ScannedManifest manifest = ManifestReader.scan(storage, location, scanner);
        byVersion.put(manifest.version(), manifest);
      }
      // An append keeps the fragments of the version before it in place: the very same groups.
      assertSharesEveryFragmentOf(byVersion.get(4L), byVersion.get(3L));
      assertSharesEveryFragmentOf(byVersion.get(6L), byVersion.get(5L));
      // The delete rewrote the third fragment (now with a deletion file): the two before it are
      // shared in place, it is parsed anew, and the fourth is found again under its id.
      ScannedManifest deleted = byVersion.get(5L);
      assertThat(deleted.sharedWithPrevious()).isEqualTo(2);
      assertThat(deleted.groups().get(2)).isNotSameAs(byVersion.get(4L).groups().get(2));
      assertThat(deleted.groups().get(2).references()).extracting(FileReference::kind).contains(FileKind.DELETION);
      assertThat(deleted.groups().get(3)).isSameAs(byVersion.get(4L).groups().get(3));
    }
  }

  private static void assertSharesEveryFragmentOf(ScannedManifest later, ScannedManifest earlier) {
    int fragments = earlier.groups().size() - 1;
    assertThat(later.sharedWithPrevious()).as("version %d", later.version()).isEqualTo(fragments);
    for (int i = 0; i < fragments; i++) {
      assertThat(later.groups().get(i)).isSameAs(earlier.groups().get(i));
    }
  }

  @Test
  void readsManifestsLargerThanTheFirstRead() {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("large-manifest"));
    table.append(2);
    table.append(2);
    // A config value Lance carries in every later manifest, larger than the first ranged read, so
    // the rest of the manifest comes from a second read reaching back to its start.
    table.updateConfig(Map.of("bench.padding", "x".repeat(ManifestFile.TAIL_READ + 4096)));
    table.append(2);
    TableLocation root = TableLocation.of(table.root().toString());
    try (TableStorage storage = new HadoopTableStorage(root, StorageConf.defaults())) {
      ReferenceScanner scanner = new ReferenceScanner(root, DatasetRef.MAIN);
      List<ManifestLocation> locations = new ArrayList<>(VersionListing.list(storage, DatasetRef.MAIN));
      locations.sort(Comparator.comparingLong(ManifestLocation::version));
      ManifestLocation latest = locations.get(locations.size() - 1);
      assertThat(latest.size()).isGreaterThan(ManifestFile.TAIL_READ);
      for (ManifestLocation location : locations) {
        Manifest full = ManifestReader.read(storage, location);
        ScannedManifest scanned = ManifestReader.scan(storage, location, scanner);
        assertThat(scanned.references()).as("%s references", location.path()).isEqualTo(full.references(root, DatasetRef.MAIN));
        assertThat(scanned.timestampNanos()).isEqualTo(full.timestampNanos());
      }
      assertThat(ManifestReader.read(storage, latest).config()).containsKey("bench.padding");
    }
  }
}
