package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;

/** Tables written with V1 manifest names, and a table that holds both schemes. */
class ManifestNamingIT {
  @TempDir Path dir;

  private static TableStorage open(LanceTableFixture table) {
    return new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults());
  }

  private static TreeMap<Long, Instant> ourVersions(TableStorage storage) {
    TreeMap<Long, Instant> versions = new TreeMap<>();
    for (ManifestLocation location : VersionListing.list(storage, DatasetRef.MAIN)) {
      Manifest manifest = ManifestReader.read(storage, location);
      versions.put(manifest.version(), Instant.EPOCH.plusNanos(manifest.timestampNanos()));
    }
    return versions;
  }

  @Test
  void readsAV1TableLikeTheSdk() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("v1"), FixtureOptions.defaults().withV1ManifestNames());
    table.append(10);
    table.append(10);
    table.deleteWhere("id = " + LanceTableFixture.firstId(1));

    try (TableStorage storage = open(table)) {
      List<ManifestLocation> listed = VersionListing.list(storage, DatasetRef.MAIN);
      assertThat(listed).extracting(ManifestLocation::path)
          .containsExactly("_versions/1.manifest", "_versions/2.manifest", "_versions/3.manifest");
      assertThat(ourVersions(storage)).isEqualTo(new SdkView(table.root(), Optional.empty()).versions());
      SdkView sdk = new SdkView(table.root(), Optional.empty());
      for (ManifestLocation location : listed) {
        assertThat(OurView.fragments(ManifestReader.read(storage, location))).as(location.path())
            .isEqualTo(sdk.fragments(location.version()));
      }
    }
  }

  @Test
  void listsEveryVersionOfATableHoldingBothSchemes() throws IOException {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("mixed"), FixtureOptions.defaults().withV1ManifestNames());
    table.append(10);
    table.append(10);
    TreeMap<Long, Instant> before;
    try (TableStorage storage = open(table)) {
      before = ourVersions(storage);
    }
    byte[] firstV1 = Files.readAllBytes(table.resolve("_versions/1.manifest"));
    try (RootAllocator allocator = new RootAllocator(); Dataset dataset = Dataset.open(table.uri(), allocator)) {
      dataset.migrateManifestPathsV2();
    }
    table.append(10);
    // Put version 1 back under its V1 name: a table caught half way through a migration. Lance 7
    // refuses to open such a table ("multiple manifest naming schemes"); cleanup must still see all.
    Files.delete(table.resolve("_versions/" + ManifestNaming.V2.fileName(1)));
    Files.write(table.resolve("_versions/1.manifest"), firstV1);

    try (TableStorage storage = open(table)) {
      assertThat(VersionListing.list(storage, DatasetRef.MAIN)).extracting(ManifestLocation::naming)
          .containsExactly(ManifestNaming.V1, ManifestNaming.V2, ManifestNaming.V2);
      TreeMap<Long, Instant> after = ourVersions(storage);
      assertThat(after.headMap(3L)).isEqualTo(before);
      assertThat(after.lastKey()).isEqualTo(3L);
      assertThat(VersionListing.latest(storage, DatasetRef.MAIN)).map(ManifestLocation::path)
          .contains("_versions/" + ManifestNaming.V2.fileName(3));
    }
  }
}
