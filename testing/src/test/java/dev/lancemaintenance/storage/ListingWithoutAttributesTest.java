package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.LocalStorageLinksTest.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local listing of names ({@link TableStorage#listFilesDeferringAttributes}) lists the same files
 * as the full one and, once their attributes are read, the same entries; it leaves attributes
 * unread only in directories that provably have no subdirectory, so no directory ever hides among
 * the names.
 */
class ListingWithoutAttributesTest {
  /** File systems whose directory link count tells a directory without subdirectories (LeafDirectories). */
  private static final Set<String> COUNTING_SUBDIRECTORIES = Set.of("ext2", "ext3", "ext4", "xfs", "tmpfs");

  @TempDir Path dir;
  private Path table;

  @BeforeEach
  void table() throws IOException {
    table = Files.createDirectories(dir.resolve("t.lance"));
    plant("_transactions/1-a.txn", "2020-01-01T00:00:00Z");
    plant("_transactions/2-b.txn", "2026-01-01T00:00:00Z");
    plant("data/a.lance", "2020-01-01T00:00:00Z");
    // A directory named as a data file: data/ is no leaf, so nothing in it may come as a bare name.
    plant("data/nested.lance/deep.lance", "2021-01-01T00:00:00Z");
    Files.createSymbolicLink(table.resolve("_transactions/3-link.txn"), Files.writeString(dir.resolve("outside"), "x"));
  }

  private void plant(String path, String mtime) throws IOException {
    Path file = table.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, path);
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse(mtime)));
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void namesReadBackToTheFullListingsEntries(Store store) throws IOException {
    try (TableStorage storage = store.open(table)) {
      for (String managed : List.of("_transactions", "data")) {
        Map<String, FileEntry> full = byPath(storage.listFiles(managed, true));
        List<FileEntry> names = list(storage.listFilesDeferringAttributes(managed, true));

        assertThat(names).extracting(FileEntry::path).as(managed).containsExactlyInAnyOrderElementsOf(full.keySet());
        for (FileEntry name : names) {
          assertThat(storage.withAttributes(name)).as(name.path()).contains(full.get(name.path()));
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void onlyADirectoryWithoutSubdirectoriesListsBareNames(Store store) throws IOException {
    boolean countsSubdirectories = COUNTING_SUBDIRECTORIES.contains(Files.getFileStore(table).type());
    try (TableStorage storage = store.open(table)) {
      assertThat(list(storage.listFilesDeferringAttributes("_transactions", true)))
          .as("a leaf directory, on a %s file system", Files.getFileStore(table).type())
          .extracting(FileEntry::attributesRead).containsOnly(!countsSubdirectories);
      Map<String, FileEntry> data = byPath(storage.listFilesDeferringAttributes("data", true));
      assertThat(data.get("data/a.lance").attributesRead()).as("beside a subdirectory").isTrue();
      assertThat(data.get("data/nested.lance/deep.lance").attributesRead()).isEqualTo(!countsSubdirectories);
    }
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void aNameThatWentAwayOrBecameADirectoryReadsAsNotListed(Store store) throws IOException {
    try (TableStorage storage = store.open(table)) {
      FileEntry gone = FileEntry.unread("_transactions/1-a.txn");
      FileEntry replaced = FileEntry.unread("_transactions/2-b.txn");
      Files.delete(table.resolve(gone.path()));
      Files.delete(table.resolve(replaced.path()));
      Files.createDirectory(table.resolve(replaced.path()));

      assertThat(storage.withAttributes(gone)).isEmpty();
      assertThat(storage.withAttributes(replaced)).isEmpty();
    }
  }

  private static List<FileEntry> list(Iterator<FileEntry> entries) {
    List<FileEntry> listed = new ArrayList<>();
    entries.forEachRemaining(listed::add);
    return listed;
  }

  private static Map<String, FileEntry> byPath(Iterator<FileEntry> entries) {
    return list(entries).stream().collect(Collectors.toMap(FileEntry::path, Function.identity()));
  }
}
