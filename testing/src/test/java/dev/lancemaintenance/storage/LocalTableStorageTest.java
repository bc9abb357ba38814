package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.LocalStorageLinksTest.Store;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalTableStorage} answers as Hadoop's local file system does (each case runs on both
 * storages, and {@link #hadoopsOwnLocalFileSystemAnswersTheseCasesAsJavaNioDoes} holds java.nio to
 * Hadoop's own calls), and {@link TableStorages} picks it for local tables only.
 */
class LocalTableStorageTest {
  @TempDir Path dir;
  private Path table;

  @BeforeEach
  void table() throws IOException {
    table = Files.createDirectories(dir.resolve("my table.lance"));
    Files.createDirectories(table.resolve("_versions"));
    Files.createDirectories(table.resolve("data/sub"));
    Files.write(table.resolve("data/a.lance"), "0123456789".getBytes(StandardCharsets.UTF_8));
    Files.createSymbolicLink(table.resolve("linked"), Files.createDirectories(dir.resolve("elsewhere")));
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void readsRangesWholeFilesAndLengths(Store store) {
    try (TableStorage storage = store.open(table)) {
      assertThat(new String(storage.read("data/a.lance", 3, 4), StandardCharsets.UTF_8)).isEqualTo("3456");
      assertThat(storage.readFully("data/a.lance")).hasSize(10);
      assertThat(storage.length("data/a.lance")).isEqualTo(10);
      assertThat(new String(storage.read("/data/a.lance", 0, 1), StandardCharsets.UTF_8))
          .as("a leading slash stays below the root").isEqualTo("0");
    }
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void aMissingFileFailsWithFileNotFoundAndAShortOneFailsToo(Store store) {
    try (TableStorage storage = store.open(table)) {
      for (Runnable missing : List.<Runnable>of(
          () -> storage.readFully("_versions/latest_version_hint.json"),
          () -> storage.read("data/none.lance", 0, 1),
          () -> storage.length("data/none.lance"))) {
        assertThatThrownBy(missing::run).isInstanceOf(StorageException.class)
            .hasMessageContaining("my table.lance")
            .cause().isInstanceOf(FileNotFoundException.class);
      }
      assertThatThrownBy(() -> storage.read("data/a.lance", 8, 4)).isInstanceOf(StorageException.class)
          .hasMessageContaining("data/a.lance");
      assertThatThrownBy(() -> storage.listDirectories("nowhere")).isInstanceOf(StorageException.class);
    }
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void listsDirectoriesSortedWithLinkedOnesAndWritesIntoNewDirectories(Store store) {
    try (TableStorage storage = store.open(table)) {
      assertThat(storage.listDirectories("")).containsExactly("_versions", "data", "linked");
      assertThat(storage.listDirectories("data")).containsExactly("sub");

      storage.write("_refs/tags/t.json", new byte[] {1, 2});
      storage.write("_refs/tags/t.json", new byte[] {3});
      assertThat(storage.readFully("_refs/tags/t.json")).containsExactly(3);
      assertThat(storage.createIfAbsent("_leases/g1", new byte[] {4})).isTrue();
      assertThat(storage.createIfAbsent("_leases/g1", new byte[] {5})).isFalse();
      assertThat(storage.readFully("_leases/g1")).containsExactly(4);

      List<String> listed = new ArrayList<>();
      storage.listFiles("", true).forEachRemaining(entry -> listed.add(entry.path()));
      assertThat(listed).containsExactlyInAnyOrder("data/a.lance", "_refs/tags/t.json", "_leases/g1", "linked");
    }
  }

  /**
   * The walk cuts each name from its entry's path string (LocalFileWalk.Level#relative): every
   * file comes out as its root-relative path, whatever its depth, with and without attributes, and
   * names with spaces, dots and (where file names are UTF-8) non-ASCII letters, in them and in the
   * root's path, read as the file system spells them.
   */
  @ParameterizedTest
  @EnumSource(Store.class)
  void listsEachFileAsItsPathBelowTheRoot(Store store) throws IOException {
    boolean utf8Names = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")).newEncoder().canEncode("éü");
    String letters = utf8Names ? "é-ü" : "e-u";
    Path root = Files.createDirectories(dir.resolve((utf8Names ? "tàble " : "table ") + letters + ".lance"));
    List<String> planted = List.of("data/a.lance", "data/b c.lance", "data/" + letters + ".lance", "data/sub/..d.lance",
        "data/sub/x/y.lance", "_transactions/1-" + letters + ".txn", "_transactions/2-.txn");
    for (String path : planted) {
      Files.createDirectories(root.resolve(path).getParent());
      Files.writeString(root.resolve(path), path);
    }
    try (TableStorage storage = store.open(root)) {
      for (boolean deferring : List.of(false, true)) {
        List<String> listed = new ArrayList<>();
        for (String managed : List.of("data", "/data/sub", "_transactions")) {
          (deferring ? storage.listFilesDeferringAttributes(managed, true) : storage.listFiles(managed, true))
              .forEachRemaining(entry -> listed.add(entry.path()));
        }
        List<String> expected = new ArrayList<>(planted);
        expected.addAll(List.of("data/sub/..d.lance", "data/sub/x/y.lance"));
        assertThat(listed).as(deferring ? "names" : "entries").containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  /**
   * The reference for the cases above: Hadoop's own local file system, which both storages once
   * read through and which {@link HadoopTableStorage} now hands every local call to java.nio
   * instead. The same ranges, lengths, directories and failures, told by the same causes.
   */
  @Test
  void hadoopsOwnLocalFileSystemAnswersTheseCasesAsJavaNioDoes() throws IOException {
    try (RawLocalFileSystem hadoop = new RawLocalFileSystem();
        TableStorage nio = Store.NIO.open(table)) {
      hadoop.initialize(URI.create("file:///"), new Configuration(false));
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(table.resolve("data/a.lance").toUri());
      byte[] range = new byte[4];
      try (FSDataInputStream in = hadoop.open(file)) {
        in.readFully(3, range);
      }
      assertThat(range).isEqualTo(nio.read("data/a.lance", 3, 4));
      assertThat(hadoop.getFileStatus(file).getLen()).isEqualTo(nio.length("data/a.lance"));

      List<String> directories = new ArrayList<>();
      for (FileStatus status : hadoop.listStatus(new org.apache.hadoop.fs.Path(table.toUri()))) {
        if (status.isDirectory()) {
          directories.add(status.getPath().getName());
        }
      }
      directories.sort(null);
      assertThat(directories).as("a directory behind a link counts, as for java.nio")
          .isEqualTo(nio.listDirectories(""));

      org.apache.hadoop.fs.Path missing = new org.apache.hadoop.fs.Path(table.resolve("data/none.lance").toUri());
      assertThatThrownBy(() -> hadoop.open(missing)).isInstanceOf(FileNotFoundException.class);
      assertThatThrownBy(() -> hadoop.getFileStatus(missing)).isInstanceOf(FileNotFoundException.class);
      assertThatThrownBy(() -> {
        try (FSDataInputStream in = hadoop.open(file)) {
          in.readFully(8, new byte[4]);
        }
      }).as("a file shorter than the range").isInstanceOf(EOFException.class);
      assertThatThrownBy(() -> nio.read("data/a.lance", 8, 4)).cause().isInstanceOf(EOFException.class);
    }
  }

  @Test
  void localTablesAreOpenedWithJavaNioUnlessHadoopIsToldToServeThem() {
    TableLocation local = TableLocation.of(table.toString());
    try (TableStorage storage = TableStorages.open(local, StorageConf.defaults())) {
      assertThat(storage).isInstanceOf(LocalTableStorage.class);
    }
    try (TableStorage storage = TableStorages.open(local, StorageConf.of(Map.of("fs.file.impl", "")))) {
      assertThat(storage).as("an empty fs.file.impl, as in Hadoop's defaults").isInstanceOf(LocalTableStorage.class);
    }
    StorageConf ownLocalFs = StorageConf.of(Map.of("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem"));
    try (TableStorage storage = TableStorages.factory(ownLocalFs).open(local)) {
      assertThat(storage).isInstanceOf(HadoopTableStorage.class);
    }
    assertThatThrownBy(() -> new LocalTableStorage(TableLocation.of("hdfs://nn:8020/t"), StorageConf.defaults()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hdfs://nn:8020/t");
  }
}
