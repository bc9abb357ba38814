package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileReference;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.RefReader;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.FixtureRows;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ScalarIndexKind;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A version's summary is found from the reference groups that changed since the manifest before
 * ({@link ReferencedElements}), a shortcut past diffing the two manifests' whole reference sets. On
 * every manifest of real tables, main and branches, cut into runs of several lengths, it must open
 * and close exactly what the set difference of the full decode's references opens and closes.
 */
class ReferencedElementsIT {
  @TempDir static Path workDir;

  static Stream<Function<Path, List<LanceTableFixture>>> tables() {
    Stream<Function<Path, Scenario>> scenarios = Stream.of(
        ConformanceScenarios::deletes,
        ConformanceScenarios::updates,
        ConformanceScenarios::indices,
        ConformanceScenarios::compaction,
        ConformanceScenarios::branches,
        ConformanceScenarios::shallowClone,
        ConformanceScenarios::v1Manifests,
        dir -> ConformanceScenarios.randomMix(dir, 11),
        dir -> ConformanceScenarios.randomMix(dir, 23));
    return Stream.concat(Stream.of(dir -> List.of(everyKindOfCommit(dir))), scenarios.map(build -> build.andThen(scenario -> {
      List<LanceTableFixture> all = new ArrayList<>(List.of(scenario.table()));
      all.addAll(scenario.related().values()); // clones and branch handles: their own manifests and base paths
      return all;
    })));
  }

  /**
   * Appends, a delete inside a fragment (its group rewritten, its data file kept), an update, an
   * index built and rebuilt, compaction, a Restore that brings back fragments compaction replaced,
   * and commits after it.
   */
  private static LanceTableFixture everyKindOfCommit(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("every-kind"));
    for (int i = 0; i < 6; i++) {
      table.append(4);
    }
    long beforeDelete = table.latestVersion();
    table.deleteWhere("id = " + LanceTableFixture.firstId(2));
    table.deleteWhere("id = " + (LanceTableFixture.firstId(2) + 1));
    table.update(LanceTableFixture.firstId(4), 2);
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    table.append(4);
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    table.compact();
    table.append(4);
    table.restore(beforeDelete);
    table.deleteWhere("id = " + LanceTableFixture.firstId(5));
    table.append(4);
    table.restore(beforeDelete);
    return table;
  }

  @ParameterizedTest
  @MethodSource("tables")
  void opensAndClosesWhatTheFullReferenceSetsDiffer(Function<Path, List<LanceTableFixture>> build) {
    for (LanceTableFixture fixture : build.apply(workDir)) {
      TableLocation root = TableLocation.of(fixture.root().toString());
      try (TableStorage storage = new HadoopTableStorage(root, StorageConf.defaults())) {
        List<DatasetRef> datasets = new ArrayList<>(List.of(DatasetRef.MAIN));
        RefReader.listBranches(storage).forEach(branch -> datasets.add(branch.dataset()));
        for (DatasetRef dataset : datasets) {
          List<ManifestLocation> manifests = VersionListing.list(storage, dataset);
          List<Set<LedgerElement>> fullSets = new ArrayList<>();
          manifests.forEach(location -> fullSets.add(fullElements(storage, root, dataset, location)));
          for (int length : new int[] {1, 2, 5, manifests.size()}) {
            for (ManifestRun run : ManifestRun.cut(manifests, length)) {
              RunSummary summary = new VersionSummaries(storage, dataset).summarise(run);
              assertSameAsTheSetDifference(fixture + " " + dataset + " runs of " + length, manifests, fullSets, run, summary);
            }
          }
        }
      }
    }
  }

  private static void assertSameAsTheSetDifference(
      String what, List<ManifestLocation> manifests, List<Set<LedgerElement>> fullSets, ManifestRun run, RunSummary summary) {
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    for (ManifestLocation location : run.manifests()) {
      int at = manifests.indexOf(location);
      Set<LedgerElement> before = at == 0 || (run.base().isEmpty() && location.equals(run.manifests().get(0)))
          ? Set.of() : fullSets.get(at - 1);
      Set<LedgerElement> after = fullSets.get(at);
      after.stream().filter(element -> !before.contains(element))
          .forEach(element -> opens.add(new LedgerSegment.Open(element, location.version())));
      before.stream().filter(element -> !after.contains(element))
          .forEach(element -> closes.add(new LedgerSegment.Close(element, location.version())));
    }
    assertThat(summary.opens()).as("%s, opens from %s", what, run.manifests().get(0).path())
        .containsExactlyInAnyOrderElementsOf(opens);
    assertThat(summary.closes()).as("%s, closes from %s", what, run.manifests().get(0).path())
        .containsExactlyInAnyOrderElementsOf(closes);
    assertThat(summary.versions()).extracting(LedgerVersion::version)
        .containsExactlyElementsOf(run.manifests().stream().map(ManifestLocation::version).toList());
  }

  /** The elements of a manifest from its full decode, filtered as the mark stage filters. */
  private static Set<LedgerElement> fullElements(
      TableStorage storage, TableLocation root, DatasetRef dataset, ManifestLocation location) {
    Set<LedgerElement> elements = new HashSet<>();
    for (FileReference reference : ManifestReader.read(storage, location).references(root, dataset)) {
      if (!reference.external() && ReferenceKeys.isInDataset(dataset, reference.path())) {
        elements.add(new LedgerElement(reference.path(), reference.kind(), reference.certain()));
      }
    }
    return elements;
  }
}
