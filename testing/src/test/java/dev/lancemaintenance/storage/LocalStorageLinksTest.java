package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.TableStorage.DeleteFailure;
import dev.lancemaintenance.testing.UndeletableFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local store never reaches out of the table through a link, and a delete it cannot do is a
 * failure (issue 12, items 9 and 10): {@code data/linkdir} links to a directory outside the table.
 */
class LocalStorageLinksTest {
  @TempDir Path dir;
  private Path table;
  private Path outside;

  @BeforeEach
  void tableWithALinkedDirectory() throws IOException {
    table = Files.createDirectories(dir.resolve("t.lance"));
    outside = Files.createDirectories(dir.resolve("outside"));
    Files.write(outside.resolve("x.lance"), new byte[] {1});
    Files.createDirectories(table.resolve("data"));
    Files.write(table.resolve("data/own.lance"), new byte[] {2});
    Files.createSymbolicLink(table.resolve("data/linkdir"), outside);
  }

  /** Both storages that serve local tables: java.nio alone, and Hadoop's (which hands these calls to it). */
  enum Store {
    NIO, HADOOP;

    TableStorage open(Path root) {
      TableLocation location = TableLocation.of(root.toString());
      return this == NIO
          ? new LocalTableStorage(location, StorageConf.defaults())
          : new HadoopTableStorage(location, StorageConf.defaults());
    }
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void listsALinkAsItselfAndNeverWhatIsBehindIt(Store store) {
    List<FileEntry> listed = new ArrayList<>();
    try (TableStorage storage = store.open(table)) {
      storage.listFiles("data", true).forEachRemaining(listed::add);
    }

    assertThat(listed).extracting(FileEntry::path).containsExactlyInAnyOrder("data/own.lance", "data/linkdir");
    assertThat(listed).filteredOn(e -> e.path().equals("data/linkdir"))
        .extracting(FileEntry::type).containsExactly(FileEntry.EntryType.LINK);
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void listsNothingOfADirectoryReachedThroughALink(Store store) {
    List<FileEntry> listed = new ArrayList<>();
    try (TableStorage storage = store.open(table)) {
      storage.listFiles("data/linkdir", true).forEachRemaining(listed::add);
    }

    assertThat(listed).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void refusesToDeleteAFileWhoseDirectoryLiesOutsideTheRoot(Store store) {
    List<DeleteFailure> failures;
    try (TableStorage storage = store.open(table)) {
      failures = storage.deleteBatch(List.of("data/linkdir/x.lance"));
    }

    assertThat(failures).extracting(DeleteFailure::reason).singleElement().asString().contains("outside the table root");
    assertThat(outside.resolve("x.lance")).exists();
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void deletingALinkRemovesTheLinkNotItsTarget(Store store) {
    List<DeleteFailure> failures;
    try (TableStorage storage = store.open(table)) {
      failures = storage.deleteBatch(List.of("data/linkdir"));
    }

    assertThat(failures).isEmpty();
    assertThat(Files.exists(table.resolve("data/linkdir"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(outside.resolve("x.lance")).exists();
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void aFileTheSystemWillNotDeleteIsAFailureAndAMissingOneIsNot(Store store) {
    List<DeleteFailure> failures;
    try (UndeletableFile ignored = UndeletableFile.make(table.resolve("data/own.lance"));
        TableStorage storage = store.open(table)) {
      failures = new ArrayList<>(storage.deleteBatch(List.of("data/own.lance")));
      failures.addAll(storage.deleteBatch(List.of("data/never-there.lance")));
    }

    assertThat(failures).extracting(DeleteFailure::path).containsExactly("data/own.lance");
    assertThat(table.resolve("data/own.lance")).exists();
  }
}
