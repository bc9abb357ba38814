package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.FileEntry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Listing rules on planted names; bodies are never read, so empty files do. */
class VersionListingTest extends PlantedFilesTest {
  @Test
  void listsBothNamingSchemesInVersionOrder() {
    plant("_versions/2.manifest");
    plant("_versions/" + ManifestNaming.V2.fileName(3));
    plant("_versions/" + ManifestNaming.V2.fileName(1));

    List<ManifestLocation> versions = VersionListing.list(storage, DatasetRef.MAIN);

    assertThat(versions).extracting(ManifestLocation::version).containsExactly(1L, 2L, 3L);
    assertThat(versions).extracting(ManifestLocation::naming)
        .containsExactly(ManifestNaming.V2, ManifestNaming.V1, ManifestNaming.V2);
    assertThat(versions.get(0).path()).isEqualTo("_versions/18446744073709551614.manifest");
  }

  @Test
  void ordersVersionsUnsignedAndOneVersionUnderBothNamingsByPath() {
    plant("_versions/9223372036854775808.manifest");
    plant("_versions/7.manifest");
    plant("_versions/5.manifest");
    plant("_versions/" + ManifestNaming.V2.fileName(5));

    List<ManifestLocation> versions = VersionListing.list(storage, DatasetRef.MAIN);

    assertThat(versions).extracting(ManifestLocation::path).as("2^63 after 7 (unsigned); version 5 by path")
        .containsExactly("_versions/18446744073709551610.manifest", "_versions/5.manifest", "_versions/7.manifest",
            "_versions/9223372036854775808.manifest");
  }

  @Test
  void skipsHintDetachedStagingAndTemporaryFiles() {
    plant("_versions/1.manifest");
    plant("_versions/latest_version_hint.json");
    plant("_versions/d9223372036854775809.manifest");
    plant("_versions/2.manifest-7f6c7a2e-0d53-4a47-9d7e-3f1e1d2f0a11");
    plant("_versions/.tmp_3.manifest_abc");

    assertThat(VersionListing.list(storage, DatasetRef.MAIN)).extracting(ManifestLocation::path)
        .containsExactly("_versions/1.manifest");
  }

  @Test
  void theDirectoryListingReadsEveryFilesAttributesAsAFullWalkDoes() {
    // Enough names for several chunks read beside the walk and after it, the last one short.
    int manifests = 3 * VersionListing.CHUNK + 7;
    for (int version = 1; version <= manifests; version++) {
      plant("_versions/" + version + ".manifest", "x".repeat(version % 97));
    }
    plant("_versions/.tmp_3.manifest_abc", "staging");
    plant("_versions/latest_version_hint.json", "{\"version\": " + manifests + "}");

    VersionListing.Directory listed = VersionListing.listDirectory(storage, DatasetRef.MAIN);

    List<FileEntry> walked = new ArrayList<>();
    storage.listFiles("_versions", true).forEachRemaining(walked::add);
    assertThat(listed.files()).as("every file once, with its size, time and type, in the walk's order")
        .containsExactlyElementsOf(walked).allMatch(FileEntry::attributesRead);
    assertThat(listed.manifests()).hasSize(manifests)
        .allSatisfy(at -> assertThat(at.size()).isEqualTo(at.version() % 97));
  }

  @Test
  void listsABranchInItsOwnDirectory() {
    plant("_versions/1.manifest");
    plant("tree/b1/_versions/" + ManifestNaming.V2.fileName(2));

    assertThat(VersionListing.list(storage, DatasetRef.branch("b1"))).extracting(ManifestLocation::path)
        .containsExactly("tree/b1/_versions/18446744073709551613.manifest");
  }

  @Test
  void failsNamingAManifestWhoseNameIsNotANumber() {
    plant("_versions/1.manifest");
    plant("_versions/abc.manifest");

    assertThatThrownBy(() -> VersionListing.list(storage, DatasetRef.MAIN))
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("_versions/abc.manifest")
        .hasMessageContaining("not an unsigned 64-bit version number");
  }

  @Test
  void picksTheNewestVersionAsLatest() {
    plant("_versions/9.manifest");
    plant("_versions/10.manifest");

    assertThat(VersionListing.latest(storage, DatasetRef.MAIN)).map(ManifestLocation::version).contains(10L);
  }

  @Test
  void readsTheVersionHintWhenPresent() {
    assertThat(VersionListing.readLatestVersionHint(storage, DatasetRef.MAIN)).isEmpty();

    plant("_versions/latest_version_hint.json", "{\"version\":12}");

    assertThat(VersionListing.readLatestVersionHint(storage, DatasetRef.MAIN)).hasValue(12);
  }

  @Test
  void failsNamingAHintThatIsNotJson() {
    plant("_versions/latest_version_hint.json", "{ver");

    assertThatThrownBy(() -> VersionListing.readLatestVersionHint(storage, DatasetRef.MAIN))
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("_versions/latest_version_hint.json");
  }
}
