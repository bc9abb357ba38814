package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.LanceDbCleanupContractTest;
import dev.lancemaintenance.format.BasePath;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceDbScenarios;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local engine meets the cleanup contract on tables written by LanceDB. */
class LocalLanceDbConformanceIT extends LanceDbCleanupContractTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .parallelism(4)
        .partitions(7);
  }

  /** The shape of issue 12, item 1 is what the fixture writes: the branch names its parent relatively. */
  @Test
  void theRelativeBranchRecordsItsParentRelativeToTheWritersDirectory(@TempDir Path dir) {
    Path root = LanceDbScenarios.relativeBranch(dir).writer().root();
    TableLocation location = TableLocation.of(root.toString());
    try (TableStorage storage = new HadoopTableStorage(location, StorageConf.defaults())) {
      ManifestLocation latest = VersionListing.latest(storage, "tree/feature").orElseThrow();

      assertThat(ManifestReader.read(storage, latest).basePaths()).extracting(BasePath::path)
          .containsExactly("./db/branch.lance");
    }
  }
}
