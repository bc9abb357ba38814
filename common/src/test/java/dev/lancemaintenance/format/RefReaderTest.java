package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Parsing rules of ref files; agreement with the SDK is in {@link ManifestReaderIT}. */
class RefReaderTest extends PlantedFilesTest {
  @Test
  void toleratesKeysItDoesNotUse() {
    plant("_refs/tags/t1.json", "{\"branch\":\"b1\",\"version\":4,\"createdAt\":\"2026-01-01T00:00:00Z\","
        + "\"manifestSize\":700,\"metadata\":{},\"somethingNew\":[1,2]}");

    assertThat(RefReader.listTags(storage)).containsExactly(new Tag("t1", Optional.of("b1"), 4, 700));
  }

  @Test
  void decodesSlashesInBranchFileNames() {
    plant("_refs/branches/team%2Fexp.json", "{\"parentBranch\":null,\"identifier\":{\"version_mapping\":[]},"
        + "\"parentVersion\":2,\"createAt\":1700000000,\"manifestSize\":684,\"metadata\":{}}");

    assertThat(RefReader.listBranches(storage)).singleElement().satisfies(branch -> {
      assertThat(branch).isEqualTo(new Branch("team/exp", Optional.empty(), 2, 1700000000, 684));
      assertThat(branch.dataset().dir()).isEqualTo("tree/team/exp");
    });
  }

  @Test
  void failsNamingARefThatIsNotJson() {
    plant("_refs/tags/broken.json", "{\"version\":");

    assertThatThrownBy(() -> RefReader.listTags(storage)).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("_refs/tags/broken.json").hasMessageContaining("not valid JSON");
  }

  @Test
  void failsNamingARefWithoutItsVersion() {
    plant("_refs/tags/t2.json", "{\"branch\":null,\"manifestSize\":1}");

    assertThatThrownBy(() -> RefReader.listTags(storage)).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("_refs/tags/t2.json").hasMessageContaining("\"version\"");
  }

  @Test
  void listsNothingWhenTheTableHasNoRefs() {
    assertThat(RefReader.listTags(storage)).isEmpty();
    assertThat(RefReader.listBranches(storage)).isEmpty();
  }
}
