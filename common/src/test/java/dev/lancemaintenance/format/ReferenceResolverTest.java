package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.PathEscapeException;
import dev.lancemaintenance.storage.TableLocation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Resolution rules on manifests built from our records (the SDK cannot write these shapes). */
class ReferenceResolverTest {
  private static final TableLocation ROOT = TableLocation.of("s3a://bucket/warehouse/t.lance");
  private static final String MANIFEST = "tree/b1/_versions/18446744073709551613.manifest";

  private static Manifest manifest(List<BasePath> bases, List<Fragment> fragments, List<IndexEntry> indices) {
    return new Manifest(MANIFEST, 2, 0, Optional.empty(), 0, 0, Optional.of("b1"), "1-abc.txn",
        bases, fragments, indices, Optional.empty(), Map.of());
  }

  private static Fragment fragment(long id, DataFile file, Optional<DeletionFile> deletion) {
    return new Fragment(id, List.of(file), deletion, 10, List.of());
  }

  @Test
  void resolvesOwnFilesBelowTheManifestsDatasetDirectory() {
    DeletionFile deletion = new DeletionFile(DeletionFile.Type.BITMAP, 1, -1L, OptionalInt.empty(), 0);
    Manifest manifest = manifest(List.of(),
        List.of(fragment(3, new DataFile("sub/x.lance", OptionalInt.empty(), 0), Optional.of(deletion))),
        List.of(new IndexEntry("0a1b", "idx", 1, OptionalInt.empty())));

    assertThat(manifest.references(ROOT, DatasetRef.branch("b1"))).containsExactly(
        new FileReference(FileKind.DATA, "tree/b1/data/sub/x.lance", false),
        new FileReference(FileKind.DELETION, "tree/b1/_deletions/3-1-18446744073709551615.bin", false),
        new FileReference(FileKind.INDEX, "tree/b1/_indices/0a1b", false),
        new FileReference(FileKind.TRANSACTION, "tree/b1/_transactions/1-abc.txn", false));
  }

  @Test
  void resolvesBasePathsSpelledAsS3IntoTheTableRoot() {
    Manifest manifest = manifest(
        List.of(new BasePath(0, Optional.empty(), true, "s3://bucket/warehouse/t.lance/"),
            new BasePath(1, Optional.empty(), false, "s3://bucket/warehouse/t.lance/imported")),
        List.of(fragment(0, new DataFile("x.lance", OptionalInt.of(0), 0), Optional.empty()),
            fragment(1, new DataFile("y.lance", OptionalInt.of(1), 0), Optional.empty())),
        List.of());

    assertThat(manifest.references(ROOT, DatasetRef.branch("b1"))).filteredOn(r -> r.kind() == FileKind.DATA)
        .containsExactly(new FileReference(FileKind.DATA, "data/x.lance", false),
            new FileReference(FileKind.DATA, "imported/y.lance", false));
  }

  @Test
  void marksFilesUnderAnotherRootAsExternalWithoutCredentials() {
    Manifest manifest = manifest(
        List.of(new BasePath(0, Optional.of("v1"), true, "s3://key:secret@bucket/source.lance")),
        List.of(fragment(0, new DataFile("x.lance", OptionalInt.of(0), 0), Optional.empty())),
        List.of());

    assertThat(manifest.references(ROOT, DatasetRef.MAIN)).first()
        .isEqualTo(new FileReference(FileKind.DATA, "s3://bucket/source.lance/data/x.lance", true));
  }

  @Test
  void failsNamingTheManifestWhenABaseIdIsUnknown() {
    Manifest manifest = manifest(List.of(),
        List.of(fragment(0, new DataFile("x.lance", OptionalInt.of(4), 0), Optional.empty())), List.of());

    assertThatThrownBy(() -> manifest.references(ROOT, DatasetRef.branch("b1"))).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(MANIFEST).hasMessageContaining("base_id 4");
  }

  @Test
  void failsWhenAReferenceEscapesItsBase() {
    Manifest manifest = manifest(
        List.of(new BasePath(0, Optional.empty(), true, "s3://bucket/warehouse/t.lance")),
        List.of(fragment(0, new DataFile("../../other/x.lance", OptionalInt.of(0), 0), Optional.empty())),
        List.of());

    assertThatThrownBy(() -> manifest.references(ROOT, DatasetRef.branch("b1"))).isInstanceOf(PathEscapeException.class)
        .hasMessageContaining(MANIFEST).hasMessageContaining("../../other/x.lance");
  }
}
