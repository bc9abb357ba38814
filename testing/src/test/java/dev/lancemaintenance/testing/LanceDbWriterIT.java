package dev.lancemaintenance.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.BasePath;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LanceDB fixtures are the shapes the contract claims they are. */
class LanceDbWriterIT {
  @TempDir Path dir;

  /** Issue 12, item 1: the branch names its parent relative to the writer's directory, with {@code ./}. */
  @Test
  void theRelativeBranchRecordsItsParentRelativeToTheWritersDirectory() {
    LanceDbScenarios.LanceDbScenario scenario = LanceDbScenarios.relativeBranch(dir);

    assertThat(basePathsOfLatest(scenario.writer().root(), DatasetRef.branch("feature"))).containsExactly("./db/branch.lance");
    assertThat(scenario.writer().readBack().unreadable()).as("every version reads from the writer's directory").isEmpty();
  }

  @Test
  void theShallowCloneRecordsItsSourceAsItWasNamed() {
    LanceDbScenarios.LanceDbScenario scenario = LanceDbScenarios.shallowClone(dir);

    assertThat(basePathsOfLatest(scenario.writer().root(), DatasetRef.MAIN)).containsExactly("./db/clone-source.lance");
  }

  private static List<String> basePathsOfLatest(Path root, DatasetRef dataset) {
    TableLocation location = TableLocation.of(root.toString());
    try (TableStorage storage = new HadoopTableStorage(location, StorageConf.defaults())) {
      ManifestLocation latest = VersionListing.latest(storage, dataset).orElseThrow();
      return ManifestReader.read(storage, latest).basePaths().stream().map(BasePath::path).toList();
    }
  }
}
